import { z } from 'zod';
import type { AgentToolCall, AgentTurnProgress, ChatMessage } from './conversationTypes';
import { InvalidMessageError, parseAgentToolCall, parseAgentTurnProgress, parseChatMessage } from './messageSchema';

/**
 * Why an append-only JSON-lines log per conversation (and not whole-file rewrites):
 * - saving a turn appends one line, so it costs the same for a 3-message chat and a 3,000-message one;
 * - a line is only ever added, never rewritten, so a crash can damage at most the line being written —
 *   every older turn is already on disk, untouched. A torn last line (no trailing newline) is dropped on
 *   load; anything else that does not parse means real corruption and the file is moved aside.
 * The first line is a `create` header; `message` events are full upserts by message id (so streaming
 * answers and progressing agent runs are re-saved whole); `rename` sets an explicit title;
 * `agent-call` (format 2) upserts one tool call into an agent turn, with the turn's progress since the
 * call before. A turn of 200 calls re-saved whole per call would write every earlier call again each
 * time (tens of MB); one record per call writes each call about twice (when it starts, when it ends).
 * Bump LOG_FORMAT_VERSION for any change an older reader would reject (a new message kind, say): older
 * builds then leave such files alone instead of judging them corrupt. A file in an older format is
 * rewritten in the current one (atomically, under its lock) before the first line it could not hold.
 */
export const LOG_FORMAT_VERSION = 2;

export type ConversationEvent =
  | { type: 'create'; v: number; id: string; at: string; title?: string }
  | { type: 'message'; at: string; message: ChatMessage }
  | { type: 'rename'; at: string; title: string }
  | { type: 'agent-call'; at: string; turnId: string; call: AgentToolCall; progress?: AgentTurnProgress };

/** The oldest format whose readers understand `event`. */
export function formatVersionFor(event: ConversationEvent): number {
  return event.type === 'agent-call' ? 2 : 1;
}

const createEvent = z.object({
  type: z.literal('create'),
  v: z.number().int().positive(),
  id: z.string(),
  at: z.string().min(1),
  title: z.string().optional(),
});
const messageEvent = z.object({ type: z.literal('message'), at: z.string().min(1), message: z.unknown() });
const renameEvent = z.object({ type: z.literal('rename'), at: z.string().min(1), title: z.string() });
const agentCallEvent = z.object({
  type: z.literal('agent-call'),
  at: z.string().min(1),
  turnId: z.string().min(1).max(200),
  call: z.unknown(),
  progress: z.unknown().optional(),
});
const anyEvent = z.discriminatedUnion('type', [createEvent, messageEvent, renameEvent, agentCallEvent]);

export function encodeEvent(event: ConversationEvent): string {
  return JSON.stringify(event) + '\n';
}

export type ParsedLog =
  | {
      kind: 'ok';
      events: ConversationEvent[];
      /** Byte length of the intact part; set when an incomplete last line must be cut off. */
      truncateTo?: number;
      /** The last line was complete JSON but lacked its newline; one must be added before appending. */
      missingFinalNewline?: boolean;
    }
  | { kind: 'corrupt'; reason: string }
  | { kind: 'too-new'; version: number };

export function parseConversationLog(bytes: Buffer, expectedId: string): ParsedLog {
  // Checked first: a newer format may change any later line, and such a file must be left alone.
  const version = headerVersion(bytes);
  if (version > LOG_FORMAT_VERSION) return { kind: 'too-new', version };

  const lastNewline = bytes.lastIndexOf(0x0a);
  const complete = bytes.subarray(0, lastNewline + 1).toString('utf8');
  const tail = bytes.subarray(lastNewline + 1).toString('utf8');

  const events: ConversationEvent[] = [];
  const lines = complete.split('\n');
  lines.pop(); // the empty string after the final newline
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const event = parseEventLine(line);
    if (!event) return { kind: 'corrupt', reason: `line ${index + 1} is not a valid history entry` };
    events.push(event);
  }

  let truncateTo: number | undefined;
  let missingFinalNewline = false;
  if (tail.trim() !== '') {
    const event = parseEventLine(tail);
    if (event) {
      events.push(event);
      missingFinalNewline = true;
    } else {
      truncateTo = lastNewline + 1;
    }
  }

  const header = events[0];
  if (!header || header.type !== 'create') return { kind: 'corrupt', reason: 'the header line is missing or damaged' };
  if (header.id !== expectedId) return { kind: 'corrupt', reason: 'the header names a different conversation' };
  if (events.slice(1).some((e) => e.type === 'create')) return { kind: 'corrupt', reason: 'it has a second header' };
  return { kind: 'ok', events, truncateTo, missingFinalNewline };
}

function headerVersion(bytes: Buffer): number {
  const end = bytes.indexOf(0x0a);
  try {
    const v = (JSON.parse(bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8')) as { v?: unknown }).v;
    return typeof v === 'number' ? v : 0;
  } catch {
    return 0;
  }
}

function parseEventLine(line: string): ConversationEvent | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  const result = anyEvent.safeParse(raw);
  if (!result.success) return undefined;
  const event = result.data;
  try {
    if (event.type === 'message') return { type: 'message', at: event.at, message: parseChatMessage(event.message) };
    if (event.type === 'agent-call') {
      const progress = event.progress === undefined ? undefined : parseAgentTurnProgress(event.progress);
      return { type: 'agent-call', at: event.at, turnId: event.turnId, call: parseAgentToolCall(event.call), ...(progress ? { progress } : {}) };
    }
    return event;
  } catch (error) {
    if (error instanceof InvalidMessageError) return undefined;
    throw error;
  }
}
