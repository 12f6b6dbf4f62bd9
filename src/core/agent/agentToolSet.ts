import { optInReasonOf, type RegisteredTool } from '../tools/toolMetadata';
import type { ToolRegistry } from '../tools/toolRegistry';
import { DEFAULT_TOOL_TOGGLES, describeAvailability, toolAvailability, type ToolToggles } from '../tools/toolToggles';
import { compactExclusion, compactSchema, firstSentence } from './compactToolSet';

/** A tool definition as chat completions expects it in `tools`. */
export interface OpenAiFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export type ToolLookupResult = { found: true; entry: RegisteredTool } | { found: false; error: string };

/** Why a registered tool is kept out of a set the toggles would put it in (e.g. an allow-list); undefined keeps it. */
export type ToolExclusion = (entry: RegisteredTool) => string | undefined;

/** The default: opt-in tools (tools/toolMetadata.ts) stay out until the set's builder lets them in. */
export const withoutOptInTools: ToolExclusion = (entry) => optInReasonOf(entry.tool);

/**
 * The tools one agent configuration offers, with their wire definitions built once, here. A
 * definition handed to `bindTools` already in OpenAI form passes through LangChain untouched, so
 * no turn converts a zod schema again; build one set per settings change, not per turn or run.
 */
export class AgentToolSet {
  readonly definitions: readonly OpenAiFunctionTool[];
  private readonly available: ReadonlyMap<string, RegisteredTool>;

  private constructor(
    private readonly registry: ToolRegistry,
    private readonly toggles: ToolToggles,
    entries: RegisteredTool[],
    private readonly exclude: ToolExclusion,
    /** The compact set for a small model: the index's matches for a question are compact too (startFromIndex). */
    readonly compact: boolean,
  ) {
    this.available = new Map(entries.map((entry) => [entry.metadata.name, entry]));
    this.definitions = Object.freeze(
      entries.map((entry) => {
        const { name, description } = entry.metadata;
        const parameters = registry.jsonSchema(name);
        return {
          type: 'function' as const,
          function: compact
            ? { name, description: firstSentence(description), parameters: compactSchema(parameters) as Record<string, unknown> }
            : { name, description, parameters },
        };
      }),
    );
  }

  /**
   * The registry's agent-callable tools that the toggles leave on and `exclude` keeps (by default: no opt-in tools).
   * `compact` (small models, compactToolSet.ts): only the compact set, each described in its first sentences.
   */
  static create(
    registry: ToolRegistry,
    toggles: ToolToggles = DEFAULT_TOOL_TOGGLES,
    exclude: ToolExclusion = withoutOptInTools,
    options: { compact?: boolean } = {},
  ): AgentToolSet {
    const compact = options.compact ?? false;
    const excludeAll: ToolExclusion = compact ? (entry) => exclude(entry) ?? compactExclusion(entry) : exclude;
    const entries = registry.list().filter((entry) => toolAvailability(entry.metadata, toggles) === 'available' && !excludeAll(entry));
    return new AgentToolSet(registry, toggles, entries, excludeAll, compact);
  }

  get names(): string[] {
    return [...this.available.keys()];
  }

  get size(): number {
    return this.available.size;
  }

  has(name: string): boolean {
    return this.available.has(name);
  }

  /** An offered tool, or the words telling the model why it cannot call `name`. */
  lookup(name: string): ToolLookupResult {
    const entry = this.available.get(name);
    if (entry) return { found: true, entry };
    const offered = this.size ? ` Available tools: ${this.names.join(', ')}.` : ' No tools are available.';
    const registered = this.registry.get(name);
    if (!registered) return { found: false, error: `Unknown tool "${name}".${offered}` };
    const excluded = this.exclude(registered);
    if (excluded) return { found: false, error: `Tool "${name}" is disabled: ${excluded}.${offered}` };
    const availability = toolAvailability(registered.metadata, this.toggles);
    const why =
      availability === 'not-agent-callable' ? 'it is not available to the agent' : `it is turned ${describeAvailability(availability)} in the tool settings`;
    return { found: false, error: `Tool "${name}" is disabled: ${why}.${offered}` };
  }
}
