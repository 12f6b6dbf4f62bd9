import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { agentGuidance } from '../agent/agentGuidance';
import type { OpenAiFunctionTool } from '../agent/agentToolSet';
import type { ModelAdapterSettings } from '../agent/modelAdapters';
import { streamTurn, type AgentChatModel, type StreamedTurn } from '../agent/streamTurn';
import { requestCalls, schemasByName } from '../agent/textProtocol/textRequests';
import type { ToolProtocol, ToolProtocolSetting } from '../agent/textProtocol/toolProtocol';
import { splitToolRequests, ToolRequestStream } from '../agent/textProtocol/toolRequestStream';
import { findTextToolCalls } from '../agent/textToolCalls';
import { parseToolCalls, type ParsedToolCall } from '../agent/toolCallParsing';
import { rejectsTools } from '../agent/turnMessages';
import { createChatModel, type TransportTuning } from '../llm/createChatModel';
import { describeLlmError } from '../llm/describeLlmError';
import type { ModelSettings } from '../llm/modelSettings';
import { SecretRedactor } from '../util/secretRedactor';
import { RecordingFetch, type RecordedExchange } from './recordingFetch';

/** What one half of the probe found. */
export type ProbeOutcome =
  /** The model called the probe tool with the right arguments. */
  | 'works'
  /** The server answered the request with `tools` with 400 or 422. */
  | 'rejected'
  /** The model answered without calling the tool. */
  | 'no-call'
  /** Native only: the model wrote the call as text (JSON or a request block) instead of a structured call. */
  | 'text-call'
  /** The model called, but not the probe tool or not with usable arguments. */
  | 'wrong-call'
  /** The request failed for another reason (connection, timeout, 401…). */
  | 'failed';

export interface ProbeAttempt {
  protocol: ToolProtocol;
  outcome: ProbeOutcome;
  works: boolean;
  /** In words for the user. */
  detail: string;
  /** The call the model made, when it made one. */
  call?: { name: string; args?: Record<string, unknown>; rawArgs: string };
  /** The model's answer text (without request blocks under the text protocol). */
  answer: string;
  /** Every HTTP exchange of this half (retries included), key removed. */
  exchanges: RecordedExchange[];
}

export interface ProbeResult {
  model: string;
  endpoint: string;
  native: ProbeAttempt;
  text: ProbeAttempt;
  /** Which protocol(s) worked. */
  verdict: 'both' | 'native' | 'text' | 'neither';
  /** The `codewiki.agent.toolProtocol` / `--tool-protocol` value that matches; undefined when neither worked. */
  suggestion?: ToolProtocolSetting;
  summary: string;
}

export interface ProbeOptions {
  adapter?: ModelAdapterSettings;
  signal?: AbortSignal;
  /** Tests swap the transport or shrink back-off; the recording sits on top of `tuning.fetch`. */
  tuning?: TransportTuning;
}

export const PROBE_TOOL: OpenAiFunctionTool = {
  type: 'function',
  function: {
    name: 'add_numbers',
    description: 'Adds two numbers and returns the sum. Always use this tool for additions.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number', description: 'The first number' }, b: { type: 'number', description: 'The second number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  },
};
export const PROBE_QUESTION = 'Use the add_numbers tool to add 17 and 25. Call the tool now; do not work out the sum yourself.';
const EXPECTED = { a: 17, b: 25 };

/**
 * "Test my server": the configured endpoint and model get one small tool-calling question twice,
 * once with native `tools` and once with the tool described by the text protocol, through the same
 * ChatOpenAI client, retries and deadlines as the agent. The answer says what works and which
 * `toolProtocol` value matches, with every raw request and response (key removed) to show.
 */
export async function probeServer(settings: ModelSettings, options: ProbeOptions = {}): Promise<ProbeResult> {
  const native = await attempt('native', settings, options);
  const text = await attempt('text', settings, options);
  const verdict = native.works && text.works ? 'both' : native.works ? 'native' : text.works ? 'text' : 'neither';
  const suggestion: ToolProtocolSetting | undefined = verdict === 'both' || verdict === 'native' ? 'native' : verdict === 'text' ? 'text' : undefined;
  return { model: settings.model, endpoint: settings.baseURL, native, text, verdict, suggestion, summary: summarize(verdict, native, text) };
}

async function attempt(protocol: ToolProtocol, settings: ModelSettings, options: ProbeOptions): Promise<ProbeAttempt> {
  const recorder = new RecordingFetch([settings.apiKey], options.tuning?.fetch);
  const redactor = new SecretRedactor([settings.apiKey]);
  const model = createChatModel(settings, { ...options.tuning, fetch: recorder.fetch }) as unknown as AgentChatModel;
  const system = `You are a helpful assistant that uses tools.\n\n${agentGuidance(settings.model, options.adapter, protocol, [PROBE_TOOL])}`;
  const messages = [new SystemMessage(system), new HumanMessage(PROBE_QUESTION)];
  const requests = protocol === 'text' ? new ToolRequestStream() : undefined;
  let turn: StreamedTurn;
  try {
    const client = protocol === 'native' ? (model.bindTools!([PROBE_TOOL]) as AgentChatModel) : model;
    let answer = '';
    turn = await streamTurn(
      client,
      messages,
      { signal: options.signal },
      { onText: (piece) => void (answer += requests ? requests.push(piece) : piece), onReasoning: () => {} },
    );
    if (requests) turn = { ...turn, text: answer + requests.end() };
  } catch (error) {
    const exchanges = await recorder.settled();
    const described = redactor.redact(describeLlmError(error, settings.baseURL, redactor));
    if (protocol === 'native' && rejectsTools(error))
      return { protocol, outcome: 'rejected', works: false, detail: `The server refused the request with tools: ${described}`, answer: '', exchanges };
    return { protocol, outcome: 'failed', works: false, detail: described, answer: '', exchanges };
  }
  const exchanges = await recorder.settled();
  const result = protocol === 'native' ? judgeNative(turn) : judgeText(requests!);
  return { protocol, ...result, answer: turn.text, exchanges };
}

function judgeNative(turn: StreamedTurn): Pick<ProbeAttempt, 'outcome' | 'works' | 'detail' | 'call'> {
  const [call] = parseToolCalls(turn.message, 1);
  if (call) return judgeCall(call, 'a native tool call');
  const written =
    findTextToolCalls(turn.text, new Set([PROBE_TOOL.function.name]), 1).calls[0] ??
    requestCalls(splitToolRequests(turn.text).blocks, schemasByName([PROBE_TOOL]), 1)[0];
  if (written) {
    return {
      outcome: 'text-call',
      works: false,
      detail:
        'The server accepted the tools, but the model wrote its call as text instead of a structured tool call (the chat template or server has no tool-call parsing). The text protocol suits this model.',
      call: shown(written),
    };
  }
  return { outcome: 'no-call', works: false, detail: 'The server accepted the tools, but the model answered without calling one.' };
}

function judgeText(requests: ToolRequestStream): Pick<ProbeAttempt, 'outcome' | 'works' | 'detail' | 'call'> {
  const [call] = requestCalls(requests.blocks, schemasByName([PROBE_TOOL]), 1);
  if (!call) return { outcome: 'no-call', works: false, detail: 'The model answered without writing a <<<[TOOL_REQUEST]>>> block.' };
  return judgeCall(call, 'a <<<[TOOL_REQUEST]>>> block');
}

function judgeCall(call: ParsedToolCall, how: string): Pick<ProbeAttempt, 'outcome' | 'works' | 'detail' | 'call'> {
  if (call.name !== PROBE_TOOL.function.name)
    return {
      outcome: 'wrong-call',
      works: false,
      detail: `The model wrote ${how}, but for "${call.name || '(no name)'}" instead of add_numbers.`,
      call: shown(call),
    };
  if (!call.args)
    return {
      outcome: 'wrong-call',
      works: false,
      detail: `The model wrote ${how} for add_numbers, but its arguments could not be read: ${call.argsError ?? ''}`.trim(),
      call: shown(call),
    };
  const right = Number(call.args.a) === EXPECTED.a && Number(call.args.b) === EXPECTED.b && typeof call.args.a === 'number' && typeof call.args.b === 'number';
  if (!right)
    return {
      outcome: 'wrong-call',
      works: false,
      detail: `The model wrote ${how} for add_numbers, but with arguments ${call.rawArgs} instead of {"a":17,"b":25}.`,
      call: shown(call),
    };
  return { outcome: 'works', works: true, detail: `The model called add_numbers with ${how} and the right arguments.`, call: shown(call) };
}

function shown(call: ParsedToolCall): ProbeAttempt['call'] {
  return { name: call.name, args: call.args, rawArgs: call.rawArgs };
}

function summarize(verdict: ProbeResult['verdict'], native: ProbeAttempt, text: ProbeAttempt): string {
  switch (verdict) {
    case 'both':
      return 'Native tool calls and the text protocol both work. Native calls are more precise: toolProtocol "native" (or "auto") fits.';
    case 'native':
      return 'Native tool calls work; the text protocol did not. Use toolProtocol "native" (or "auto").';
    case 'text':
      return `Native tool calls do not work (${native.outcome === 'rejected' ? 'the server rejects tools' : native.outcome === 'text-call' ? 'the model writes calls as text' : native.detail}); the text protocol does. Use toolProtocol "text".`;
    case 'neither':
      return `Neither native tool calls nor the text protocol worked (native: ${native.detail} Text: ${text.detail}) The agent may still answer without tools; a larger or instruction-tuned model may do better.`;
  }
}
