import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { ToolLookup } from './toolLookup';
import type { RegisteredTool, ToolMetadata } from './toolMetadata';

const schemaCache = new WeakMap<StructuredToolInterface, Record<string, unknown>>();

/**
 * The one place tools are looked up by name. The executor, the CLI's `tools` command and
 * (later) the autonomous agent's tool picker all read from here, so metadata lives beside
 * the LangChain tool instead of being scattered across callers.
 */
export class ToolRegistry implements ToolLookup {
  private readonly tools = new Map<string, RegisteredTool>();

  /** `agentCallable` defaults to false: a tool reaches the agent only when its registration says so. */
  register(tool: StructuredToolInterface, metadata: Omit<ToolMetadata, 'name' | 'description' | 'agentCallable'> & Partial<ToolMetadata>): this {
    const name = metadata.name ?? tool.name;
    if (this.tools.has(name)) throw new Error(`Tool "${name}" is registered twice`);
    this.tools.set(name, {
      tool,
      metadata: { ...metadata, name, description: metadata.description ?? tool.description, agentCallable: metadata.agentCallable ?? false },
    });
    return this;
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  list(): RegisteredTool[] {
    return [...this.tools.values()];
  }

  /** A copy that can take more tools without changing this one (nested chains get their own view). */
  clone(): ToolRegistry {
    const copy = new ToolRegistry();
    for (const [name, entry] of this.tools) copy.tools.set(name, entry);
    return copy;
  }

  /** Parameter names of a tool, in declaration order; used to bind a lone step input. */
  parameterNames(name: string): string[] {
    const schema = this.jsonSchema(name);
    const properties = (schema as { properties?: Record<string, unknown> }).properties;
    return properties ? Object.keys(properties) : [];
  }

  requiredParameterNames(name: string): string[] {
    const required = (this.jsonSchema(name) as { required?: string[] }).required;
    return Array.isArray(required) ? required : [];
  }

  /** Cached per tool object: the executor binds inputs with it on every step. */
  jsonSchema(name: string): Record<string, unknown> {
    const entry = this.tools.get(name);
    if (!entry) throw new Error(`Unknown tool "${name}"`);
    let schema = schemaCache.get(entry.tool);
    if (!schema) {
      schema = toJsonSchema(entry.tool.schema as Parameters<typeof toJsonSchema>[0]) as Record<string, unknown>;
      schemaCache.set(entry.tool, schema);
    }
    return schema;
  }
}
