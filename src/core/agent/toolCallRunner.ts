import type { RunnableConfig } from '@langchain/core/runnables';
import { z } from 'zod';
import { StepTimeoutError } from '../util/cancellation';
import { invokeRegisteredTool, runWithDeadline } from '../tools/invokeTool';
import { isAbortError } from '../llm/describeLlmError';
import { UsageCollector, type TokenUsage } from '../llm/usage';
import { renderValue } from '../values/renderValue';
import type { RegisteredTool } from '../tools/toolMetadata';
import { isPreviewableTool, type ToolPreview } from '../tools/workspace-write/toolPreview';
import { forEachBounded } from '../util/boundedConcurrency';
import type { AgentEventBody, ToolCallStatus } from './agentEvents';
import type { AgentToolSet } from './agentToolSet';
import { ToolApprovals } from './approvalGate';
import { summarizeArgs, type ParsedToolCall } from './toolCallParsing';

export interface ToolCallContext {
  tools: AgentToolSet;
  approvals: ToolApprovals;
  conversationId: string;
  emit(event: AgentEventBody): void;
  signal: AbortSignal;
  /** Longest tool result the model is sent; longer ones are cut with a marker. */
  maxResultChars: number;
  /** Longest output carried by a tool-call-end event. */
  maxEventOutputChars: number;
  /** Read and think calls of one turn that run at the same time. */
  concurrency: number;
  /** Extra `configurable` entries for tools (e.g. the ToolRuntime a think tool needs). */
  configurable?: Record<string, unknown>;
  /** Set in a sub-agent's run: the id of the parent's call that started it (approvals name it). */
  parentCallId?: string;
}

export interface ToolCallResult {
  call: ParsedToolCall;
  status: ToolCallStatus;
  /** What the model is sent as the tool message. */
  content: string;
  durationMs: number;
  tokens: TokenUsage;
}

/**
 * Runs one turn's tool calls. Read and think calls (and bad calls, which only produce an error)
 * run concurrently in runs of consecutive calls; a write or execute call waits for the calls before
 * it, asks for approval, and runs alone, so approvals come one at a time and in the model's order.
 * Results come back in call order. Nothing here throws for a bad call: only a Stop escapes.
 */
export async function runToolCalls(calls: ParsedToolCall[], iteration: number, context: ToolCallContext): Promise<ToolCallResult[]> {
  const results: ToolCallResult[] = new Array(calls.length);
  try {
    await runInOrder(calls, iteration, context, results);
  } catch (error) {
    // A Stop or the wall clock: the calls that did finish (a write that was made) must still be reported.
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { partialResults: results.filter(Boolean) });
  }
  return results;
}

/** The results a stopped `runToolCalls` had already produced. */
export function partialResultsOf(error: unknown): ToolCallResult[] {
  return ((error as { partialResults?: ToolCallResult[] })?.partialResults ?? []).filter(Boolean);
}

async function runInOrder(calls: ParsedToolCall[], iteration: number, context: ToolCallContext, results: ToolCallResult[]): Promise<void> {
  let index = 0;
  while (index < calls.length) {
    if (needsApproval(calls[index]!, context)) {
      results[index] = await runOne(calls[index]!, iteration, context);
      index++;
      continue;
    }
    let end = index;
    while (end < calls.length && !needsApproval(calls[end]!, context)) end++;
    const start = index;
    await forEachBounded(calls.slice(start, end), context.concurrency, async (call, offset) => {
      results[start + offset] = await runOne(call, iteration, context);
    });
    index = end;
  }
}

function needsApproval(call: ParsedToolCall, context: ToolCallContext): boolean {
  const found = context.tools.lookup(call.name);
  return found.found && call.args !== undefined && ToolApprovals.needsApproval(found.entry.metadata.kind);
}

async function runOne(call: ParsedToolCall, iteration: number, context: ToolCallContext): Promise<ToolCallResult> {
  const started = performance.now();
  const found = context.tools.lookup(call.name);
  const entry = found.found ? found.entry : undefined;
  context.emit({
    type: 'tool-call-start',
    id: call.id,
    iteration,
    tool: call.name,
    displayName: entry?.metadata.displayName ?? call.name,
    kind: entry?.metadata.kind,
    argsSummary: call.args ? summarizeArgs(call.args) : `(invalid arguments) ${summarizeArgs({ raw: call.rawArgs })}`,
    args: call.args ?? call.rawArgs,
  });
  const collector = new UsageCollector();
  const finish = (status: ToolCallStatus, content: string, error?: string): ToolCallResult => {
    const durationMs = performance.now() - started;
    const tokens = collector.usage;
    context.emit({
      type: 'tool-call-end',
      id: call.id,
      iteration,
      tool: call.name,
      status,
      durationMs,
      tokens,
      output: capText(content, context.maxEventOutputChars),
      error,
    });
    return { call, status, content: capText(content, context.maxResultChars), durationMs, tokens };
  };
  const fail = (message: string) => finish('error', `Error: ${message}`, message);

  // A text request that could not be read has no name; why it could not be read is the useful part.
  if (!entry) return fail(!call.name && call.argsError ? call.argsError : (found as { error: string }).error);
  if (!call.args) return fail(call.argsError ?? 'The arguments could not be read.');
  const invalid = await validationError(entry, call.args);
  if (invalid) return fail(invalid);

  try {
    const config: RunnableConfig = { callbacks: [collector], configurable: context.configurable, runName: call.id };
    let run: (signal: AbortSignal) => Promise<unknown>;
    if (ToolApprovals.needsApproval(entry.metadata.kind)) {
      let preview: ToolPreview;
      if (isPreviewableTool(entry.tool)) {
        const prepared = await entry.tool.prepare(call.args, { ...config, signal: context.signal });
        preview = prepared.preview;
        run = (signal) => prepared.apply(signal);
      } else {
        preview = { type: 'arguments', text: JSON.stringify(call.args, null, 2) };
        run = (signal) => invokeRegisteredTool(entry, call.args!, { ...config, signal });
      }
      const subject = {
        callId: call.id,
        ...(context.parentCallId ? { parentCallId: context.parentCallId } : {}),
        tool: call.name,
        displayName: entry.metadata.displayName,
        kind: entry.metadata.kind,
        args: call.args,
        preview,
      };
      const outcome = await context.approvals.decide(subject, context.conversationId, context.emit, context.signal);
      if (!outcome.allowed) {
        const reason = outcome.reason?.trim();
        return finish(
          'denied',
          `The user denied this call; it did not run.${reason ? ` Reason: ${reason}` : ''} Do not retry it unless the user asks; continue without it.`,
        );
      }
    } else {
      run = (signal) => invokeRegisteredTool(entry, call.args!, { ...config, signal });
    }
    const output = await runWithDeadline(run, context.signal, entry.metadata.timeoutMs);
    return finish('ok', renderValue(output) || '(no output)');
  } catch (error) {
    if (context.signal.aborted) throw error;
    if (error instanceof StepTimeoutError) return fail(`${call.name} ${error.message}`);
    if (isAbortError(error)) throw error;
    return fail((error as Error)?.message ?? String(error));
  }
}

/** zod's own message, one problem per line, so the model can fix its call; undefined when the arguments fit. */
export async function validationError(entry: RegisteredTool, args: Record<string, unknown>): Promise<string | undefined> {
  const schema = entry.tool.schema as { safeParseAsync?: (value: unknown) => Promise<{ success: boolean; error?: z.ZodError }> };
  if (typeof schema?.safeParseAsync !== 'function') return undefined;
  const parsed = await schema.safeParseAsync(args);
  if (parsed.success || !parsed.error) return undefined;
  return `The arguments do not match the parameters of ${entry.metadata.name}:\n${z.prettifyError(parsed.error)}\nFix the arguments and call it again.`;
}

/** Cuts `text` to `maxChars` with a marker saying how much there was. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n… [truncated by CodeWiki: ${text.length.toLocaleString('en-US')} characters in all; ask for less, e.g. a line range or a narrower search]`;
}
