/**
 * Per-family guidance appended to the agent's system prompt. Families differ in how willingly they
 * call tools, whether they call several at once, and how they fail (local models often write a
 * call as plain text instead of a structured call); a few sentences aimed at each habit help.
 */

export type ModelFamily = 'gpt' | 'claude' | 'qwen' | 'llama' | 'gemma' | 'deepseek' | 'default';

export interface ModelAdapterSettings {
  /** Use this family's guidance whatever the model is called. */
  family?: ModelFamily;
  /** Which tools the agent offers: `auto` (default) the compact set to small models (compactToolSet.ts), every tool to others. */
  toolSet?: 'auto' | 'compact' | 'full';
  /** Replaces a family's built-in guidance ('' removes it). */
  guidance?: Partial<Record<ModelFamily, string>>;
}

export interface ModelAdapter {
  family: ModelFamily;
  guidance: string;
}

/** First match wins; tested against the model name in lower case. */
const FAMILY_PATTERNS: ReadonlyArray<[ModelFamily, RegExp]> = [
  ['claude', /claude/],
  ['deepseek', /deepseek/],
  ['qwen', /qwen|qwq/],
  ['gemma', /gemma/],
  ['llama', /llama|codellama/],
  ['gpt', /gpt|(^|[/:])o[1-9]([-.]|$)|chatgpt/],
];

/** Dropped from the guidance under the text tool protocol, where calls are written as text on purpose. */
export const STRUCTURED_CALLS = 'Call tools only through the structured tool-calling interface; never write a tool call as text or JSON in your answer.';

const BUILT_IN_GUIDANCE: Record<ModelFamily, string> = {
  gpt:
    'Use the tools before answering questions about this workspace: do not guess file contents or names. ' +
    'When several independent reads are needed, request them together in one turn.',
  claude:
    'Think briefly, then act: when the answer depends on the workspace, call a tool rather than describing what you would do. ' +
    'Independent reads can be requested together in one turn.',
  // No STRUCTURED_CALLS for Qwen: the pinned Qwen2.5-Coder 1.5B never emits native calls through llama-server, it
  // writes them as fenced JSON, which the loop validates and runs (and `auto` then switches to the text protocol).
  // Told never to write calls as text, it made none at all and answered from the layout's file names (real-model
  // tier, "Where is the word frequency computed?": no call with the sentence, a read_file call without it).
  qwen: 'Use the tools before answering questions about this workspace: do not guess file contents or names. Keep arguments to the documented parameters, and stop calling tools once you can answer.',
  llama: `${STRUCTURED_CALLS} Call one tool at a time and wait for its result before deciding the next step.`,
  gemma: `${STRUCTURED_CALLS} Call one tool at a time; use exact paths from earlier tool results.`,
  deepseek: `${STRUCTURED_CALLS} Keep your reasoning out of the final answer, which should state the result directly.`,
  default: `${STRUCTURED_CALLS} Use exact paths from earlier tool results, and stop calling tools once you can answer.`,
};

export function modelFamilyOf(modelName: string): ModelFamily {
  const name = modelName.toLowerCase();
  for (const [family, pattern] of FAMILY_PATTERNS) if (pattern.test(name)) return family;
  return 'default';
}

export function modelAdapterFor(modelName: string, settings: ModelAdapterSettings = {}): ModelAdapter {
  const family = settings.family ?? modelFamilyOf(modelName);
  return { family, guidance: settings.guidance?.[family] ?? BUILT_IN_GUIDANCE[family] };
}

/**
 * Whether a model is small enough (by the size its name states, as local models' names do) that every
 * prompt token counts: a 1.5B model on a CPU processes about 30 prompt tokens a second.
 */
export function isSmallModel(modelName: string): boolean {
  const size = /(?:^|[^\d.])(\d+(?:\.\d+)?)\s*([bm])(?![a-z])/i.exec(modelName);
  if (!size) return false;
  const billions = Number(size[1]) / (size[2]!.toLowerCase() === 'm' ? 1000 : 1);
  return billions <= 4;
}
