import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import type { RunnableConfig } from '@langchain/core/runnables';
import { StructuredTool, ToolInputParsingException } from '@langchain/core/tools';
import { z } from 'zod';

export type ToolFunction<S extends z.ZodObject> = (input: z.infer<S>, config: RunnableConfig) => Promise<unknown>;

/**
 * A LangChain StructuredTool (so `bindTools`, tool calling and `codewiki tools` treat it like
 * any other) with a second, direct entry point for the executor. LangChain's `tool()` wraps
 * every call in tracing context (a run tree, async-local storage, callback managers), which
 * costs tens of microseconds per call and buys nothing here because the executor reports its
 * own events; `run` validates with the same zod schema and calls the function directly.
 */
export class CodewikiTool<S extends z.ZodObject = z.ZodObject> extends StructuredTool<S> {
  name: string;
  description: string;
  schema: S;

  constructor(
    fields: { name: string; description: string; schema: S },
    private readonly func: ToolFunction<S>,
  ) {
    super();
    this.name = fields.name;
    this.description = fields.description;
    this.schema = fields.schema;
  }

  static override lc_name(): string {
    return 'CodewikiTool';
  }

  /** Validates like LangChain's `call` and runs the function with the caller's config as is. */
  async run(args: unknown, config: RunnableConfig): Promise<unknown> {
    const parsed = await this.schema.safeParseAsync(args);
    if (!parsed.success) {
      throw new ToolInputParsingException(`Invalid input for ${this.name}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`, JSON.stringify(args));
    }
    return this.func(parsed.data, config);
  }

  protected override _call(input: unknown, runManager?: CallbackManagerForToolRun, parentConfig?: RunnableConfig): Promise<unknown> {
    return this.func(input as z.infer<S>, { ...parentConfig, callbacks: runManager?.getChild() });
  }
}

/** Same shape as LangChain's `tool(func, fields)`. */
export function codewikiTool<S extends z.ZodObject>(func: ToolFunction<S>, fields: { name: string; description: string; schema: S }): CodewikiTool<S> {
  return new CodewikiTool(fields, func);
}
