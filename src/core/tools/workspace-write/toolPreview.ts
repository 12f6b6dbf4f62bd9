import type { RunnableConfig } from '@langchain/core/runnables';
import { ToolInputParsingException } from '@langchain/core/tools';
import { z } from 'zod';
import { CodewikiTool } from '../codewikiTool';

/**
 * The exact change a write or execute tool is about to make, shown for approval before it runs:
 * a unified diff for file changes, the command line and folder for commands.
 */
export type ToolPreview =
  | {
      type: 'diff';
      /** Workspace-relative, forward slashes. */
      path: string;
      action: 'create' | 'replace' | 'edit';
      /** Unified diff with `a/` and `b/` labels (`/dev/null` for a new file). */
      diff: string;
      added: number;
      removed: number;
    }
  | {
      type: 'command';
      command: string;
      /** Workspace-relative folder the command runs in ('.' for the root). */
      cwd: string;
      timeoutMs: number;
    }
  | {
      /** A write or execute tool that cannot describe its change: the arguments are what the user judges. */
      type: 'arguments';
      text: string;
    };

/**
 * A call whose effect has been worked out but not yet made. `apply` makes exactly the previewed
 * change, and refuses (changing nothing) when the file moved on since the preview was taken.
 */
export interface PreparedToolCall {
  preview: ToolPreview;
  apply(signal?: AbortSignal): Promise<string>;
}

export type PrepareFunction<S extends z.ZodObject> = (input: z.infer<S>, config: RunnableConfig) => Promise<PreparedToolCall>;

/**
 * A tool that can say what it will do before doing it. Called directly (`run`, `invoke`) it
 * prepares and applies in one go; the agent calls `prepare`, asks for approval with the preview,
 * and applies only when allowed.
 */
export class PreviewableTool<S extends z.ZodObject = z.ZodObject> extends CodewikiTool<S> {
  private readonly prepareCall: PrepareFunction<S>;

  constructor(fields: { name: string; description: string; schema: S }, prepare: PrepareFunction<S>) {
    super(fields, async (input, config) => (await prepare(input, config)).apply(config?.signal));
    this.prepareCall = prepare;
  }

  /** Validates like `run`, then works out the change without making it. */
  async prepare(args: unknown, config: RunnableConfig = {}): Promise<PreparedToolCall> {
    const parsed = await this.schema.safeParseAsync(args);
    if (!parsed.success) {
      throw new ToolInputParsingException(`Invalid input for ${this.name}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`, JSON.stringify(args));
    }
    return this.prepareCall(parsed.data, config);
  }
}

export function isPreviewableTool(tool: unknown): tool is PreviewableTool {
  return tool instanceof PreviewableTool;
}

/** The preview as plain text, for a terminal prompt or a log. */
export function renderPreview(preview: ToolPreview): string {
  if (preview.type === 'command')
    return `$ ${preview.command}\n  (in ${preview.cwd === '.' ? 'the workspace root' : preview.cwd}, timeout ${Math.round(preview.timeoutMs / 1000)} s)`;
  if (preview.type === 'arguments') return preview.text;
  return preview.diff;
}
