import type { AgentToolSet } from '../agent/agentToolSet';
import { ToolApprovals } from '../agent/approvalGate';
import { AutoApprovalPolicy, isCompoundCommand } from '../agent/autoApprovalPolicy';
import { requestCalls, schemasByName } from '../agent/textProtocol/textRequests';
import { REQUEST_START } from '../agent/textProtocol/toolProtocol';
import { splitToolRequests } from '../agent/textProtocol/toolRequestStream';
import { validationError } from '../agent/toolCallRunner';
import { parseArguments, type ParsedToolCall } from '../agent/toolCallParsing';
import { findTextToolCalls } from '../agent/textToolCalls';
import type { ToolKind } from '../tools/toolMetadata';

/** How the pasted text was written: a text-protocol block, a JSON call as small models write it, or an OpenAI `tool_calls` value. */
export type ManualCallForm = 'text-protocol' | 'json' | 'native';

export interface ApprovalNeeded {
  /** True for write and execute tools that the user's settings do not auto-approve. */
  needed: boolean;
  autoApproved: boolean;
  why: string;
}

export interface ManualCallCheck {
  call: ParsedToolCall;
  tool?: { name: string; displayName: string; kind: ToolKind; category: string };
  /** Why the agent would send an error back instead of running the call (unknown or disabled tool, unreadable or invalid arguments). */
  problem?: string;
  valid: boolean;
  approval: ApprovalNeeded;
}

export interface ManualCallParse {
  form?: ManualCallForm;
  calls: ManualCallCheck[];
  /** Set when nothing in the text reads as a tool call. */
  error?: string;
}

export interface ManualCallContext {
  /** The tools the agent offers under the current toggles. */
  tools: AgentToolSet;
  /** Every registered tool name, so a call to a tool that is turned off still parses (and is reported as off). */
  knownTools?: Iterable<string>;
  /** The user's auto-approval policy; nothing is auto-approved when absent. */
  policy?: AutoApprovalPolicy;
}

/**
 * Reads a tool call pasted into the tool tester, as the agent would read it from a model, and says
 * what the agent would do with it: the tool, whether the arguments pass the schema, and whether it
 * would run at once or ask. Uses the agent's own parsers, so a call that passes here passes there.
 */
export async function parseManualCall(text: string, context: ManualCallContext): Promise<ManualCallParse> {
  const parsed = readCalls(text, context);
  if (!parsed.calls.length) return { calls: [], error: parsed.error ?? NOTHING_FOUND };
  const checks = await Promise.all(parsed.calls.map((call) => checkCall(call, context)));
  return { form: parsed.form, calls: checks };
}

const NOTHING_FOUND =
  'No tool call found. Paste a <<<[TOOL_REQUEST]>>> block, a JSON call such as {"name": "read_file", "arguments": {"path": "README.md"}}, or an OpenAI tool_calls value.';

function readCalls(text: string, context: ManualCallContext): { form?: ManualCallForm; calls: ParsedToolCall[]; error?: string } {
  if (text.includes(REQUEST_START)) {
    const { blocks } = splitToolRequests(text);
    return { form: 'text-protocol', calls: requestCalls(blocks, schemasByName(context.tools.definitions), 0) };
  }
  const native = nativeToolCalls(text);
  if (native) return { form: 'native', calls: native };
  const known = new Set(context.knownTools ?? context.tools.names);
  const { calls } = findTextToolCalls(text, known, 0);
  if (calls.length) return { form: 'json', calls };
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      JSON.parse(trimmed);
      return { calls: [], error: `The JSON names no known tool. ${NOTHING_FOUND}` };
    } catch (error) {
      return { calls: [], error: `The JSON could not be read: ${(error as Error).message}` };
    }
  }
  return { calls: [] };
}

/** `{"tool_calls": [...]}` (an assistant message), a whole chat completion, a bare array, or one `{"type": "function", …}` entry. */
function nativeToolCalls(text: string): ParsedToolCall[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    return undefined;
  }
  const record = asRecord(value);
  const message = asRecord(asRecord((record?.choices as unknown[] | undefined)?.[0])?.message);
  const list = Array.isArray(value)
    ? value
    : Array.isArray(record?.tool_calls)
      ? record.tool_calls
      : Array.isArray(message?.tool_calls)
        ? message.tool_calls
        : record?.type === 'function' && record.function
          ? [record]
          : undefined;
  if (!list) return undefined;
  const calls = (list as unknown[]).map((entry, index) => nativeCall(asRecord(entry), index));
  return calls.every(Boolean) && calls.length ? (calls as ParsedToolCall[]) : undefined;
}

function nativeCall(entry: Record<string, unknown> | undefined, index: number): ParsedToolCall | undefined {
  const fn = asRecord(entry?.function);
  if (!fn || typeof fn.name !== 'string') return undefined;
  const id = typeof entry?.id === 'string' && entry.id ? entry.id : `manual_call_${index}`;
  const raw = fn.arguments;
  const rawArgs = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw);
  return { id, name: fn.name, rawArgs, ...parseArguments(rawArgs) };
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

async function checkCall(call: ParsedToolCall, context: ManualCallContext): Promise<ManualCallCheck> {
  const found = context.tools.lookup(call.name);
  const noApproval: ApprovalNeeded = { needed: false, autoApproved: false, why: 'Not run: the call has a problem.' };
  if (!found.found) return { call, problem: !call.name && call.argsError ? call.argsError : found.error, valid: false, approval: noApproval };
  const { metadata } = found.entry;
  const tool = { name: metadata.name, displayName: metadata.displayName, kind: metadata.kind, category: metadata.category };
  const approval = approvalFor(tool, call.args, context.policy ?? AutoApprovalPolicy.none());
  if (!call.args) return { call, tool, problem: call.argsError ?? 'The arguments could not be read.', valid: false, approval };
  const invalid = await validationError(found.entry, call.args);
  return invalid ? { call, tool, problem: invalid, valid: false, approval } : { call, tool, valid: true, approval };
}

/** The approval the runner would ask for; a command's own rules apply to command-running tools (see AutoApprovalPolicy). */
function approvalFor(tool: { name: string; kind: ToolKind }, args: Record<string, unknown> | undefined, policy: AutoApprovalPolicy): ApprovalNeeded {
  if (!ToolApprovals.needsApproval(tool.kind)) return { needed: false, autoApproved: false, why: `A ${tool.kind} tool: runs without asking.` };
  const command = tool.kind === 'execute' && typeof args?.command === 'string' ? args.command : undefined;
  if (policy.autoApproves(tool, command))
    return { needed: false, autoApproved: true, why: 'Auto-approved by your settings (codewiki.agent.autoApprove / commandAllowList).' };
  if (command !== undefined && isCompoundCommand(command)) {
    return { needed: true, autoApproved: false, why: 'This command chains, redirects or substitutes commands, so it always asks, even when allow-listed.' };
  }
  return { needed: true, autoApproved: false, why: `A ${tool.kind} tool: asks for your approval before it runs.` };
}
