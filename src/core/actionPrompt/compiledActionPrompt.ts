import type { CompiledCondition } from './condition';
import type { PositionIndex } from '../yaml/yamlPositions';
import type { Diagnostic } from '../yaml/diagnostics';
import type { ActionPromptDefinition, InputVariable, LlmToolDefinition, TemplateInput } from './actionPromptSchema';

/** An action prompt that passed every load-time check and is ready for the executor. */
export interface CompiledActionPrompt {
  /** From the file name. */
  id: string;
  file: string;
  source: PromptSource;
  title: string;
  description: string;
  inputs: CompiledInput[];
  llmTools: LlmToolDefinition[];
  steps: CompiledStep[];
  /** For each step index, the step indices it waits for. */
  dependencies: number[][];
  finalPrompt?: { system?: string; human: string };
  /** A template, or a mapping of templates (a seed-002 chain's `output:` is one). */
  outputTemplate?: TemplateInput;
  models: { main?: string; tool?: string };
  maxConcurrency?: number;
  definition: ActionPromptDefinition;
  positions: PositionIndex;
  /** Problems that do not stop it from running (e.g. a zero-width space in a template). */
  warnings: Diagnostic[];
}

export type PromptSource = 'builtin' | 'workspace' | 'file';

export interface CompiledInput extends InputVariable {
  required: boolean;
  /** Where it is declared, for error messages about given values. */
  fieldPath: Array<string | number>;
}

export interface CompiledStep {
  index: number;
  id: string;
  title: string;
  tool: string;
  input?: TemplateInput;
  outputVariable?: string;
  condition?: CompiledCondition;
  select?: string;
  retry: { attempts: number; backoffMs: number };
  onError: 'abort' | 'continue' | 'fallback';
  fallback: CompiledStep[];
  timeoutMs?: number;
  forEach?: { template: string; as: string; concurrency: number };
  /** `run_if_skipped: true`: runs even when a step it reads from was skipped. */
  runIfSkipped: boolean;
  /** Variables read without a `?? default`: when the step producing one is skipped, this step is skipped too. */
  needs: string[];
  fieldPath: Array<string | number>;
}
