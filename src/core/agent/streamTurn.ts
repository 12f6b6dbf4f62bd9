import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { textOf } from '../llm/streamChat';
import { serverTimingsOf, type ServerTimings } from '../llm/serverTimings';
import { usageFromMessage, type TokenUsage } from '../llm/usage';
import { linkedAbortController } from '../util/abort';
import { ThinkBlockSplitter } from '../llm/thinkBlocks';

/**
 * The part of a chat model the loop uses: `stream` for every turn and, for the turns that offer
 * tools, `bindTools`. ChatOpenAI (ChatCompletionsModel) is the real one; the bench passes a stub.
 */
export interface AgentChatModel {
  stream(messages: BaseMessage[], options?: TurnCallOptions): Promise<AsyncIterable<AIMessageChunk>>;
  bindTools?(tools: readonly object[], kwargs?: Record<string, unknown>): AgentChatModel | unknown;
}

export interface TurnCallOptions {
  signal?: AbortSignal;
  /** A tool name forces that tool (`@tool` mentions); otherwise the model chooses. */
  tool_choice?: string;
  [option: string]: unknown;
}

export interface StreamedTurn {
  /** All chunks concatenated: content, tool_call_chunks (merged by index) and metadata; the answer is `text` (an answer cut short keeps more here). */
  message: AIMessageChunk | undefined;
  /** The answer text, without reasoning. */
  text: string;
  reasoning: string;
  usage: TokenUsage | undefined;
  finishReason: string | undefined;
  /** From sending the request to the first thing the model wrote (text, reasoning or a tool call). */
  firstTokenMs?: number;
  /** llama-server's own account of the call: prompt tokens computed and cached, and the time of each phase. */
  timings?: ServerTimings;
}

export interface TurnListener {
  onText(text: string): void;
  onReasoning(text: string): void;
  /**
   * What becomes of the answer so far, asked of the answer only, never of reasoning (a model may think in numbered
   * steps): ended at `end` (what follows is neither kept nor shown, and the model call is stopped, as a server stops
   * at a stop sequence), or its last `hold` characters not shown yet, since they may begin where it will end.
   */
  cutAnswer?(answer: string): AnswerCut | undefined;
}

export type AnswerCut = { end: number } | { hold: number };

/**
 * Streams one model call. Usage and finish_reason are read from the chunk that carries them (see
 * streamChat.ts for why not from the concatenation); answer text and reasoning are told apart as
 * they arrive, whether the server marks reasoning with `<think>` tags or sends `reasoning_content`.
 */
export async function streamTurn(model: AgentChatModel, messages: BaseMessage[], options: TurnCallOptions, listener: TurnListener): Promise<StreamedTurn> {
  const turn: StreamedTurn = { message: undefined, text: '', reasoning: '', usage: undefined, finishReason: undefined };
  const splitter = new ThinkBlockSplitter();
  let ended = false;
  let shown = 0;
  const show = (upTo: number) => {
    if (upTo > shown) listener.onText(turn.text.slice(shown, upTo));
    shown = Math.max(shown, upTo);
  };
  const take = (piece: { answer: string; reasoning: string }) => {
    if (piece.reasoning) {
      turn.reasoning += piece.reasoning;
      listener.onReasoning(piece.reasoning);
    }
    if (piece.answer) {
      turn.text += piece.answer;
      const cut = listener.cutAnswer?.(turn.text);
      if (cut && 'end' in cut) {
        ended = true;
        // What was shown stays shown; the answer the model is told it gave ends where it should.
        turn.text = turn.text.slice(0, Math.max(cut.end, 0));
      }
      show(cut && 'hold' in cut ? turn.text.length - cut.hold : turn.text.length);
    }
  };
  // The SDK leaves a listener on the signal it is given for every request; a signal per turn keeps
  // them from piling up on the run's signal over many iterations.
  const { controller, dispose } = linkedAbortController(options.signal);
  try {
    const sent = performance.now();
    const stream = await model.stream(messages, { ...options, signal: controller.signal });
    for await (const chunk of stream) {
      turn.message = turn.message ? turn.message.concat(chunk) : chunk;
      turn.usage = usageFromMessage(chunk) ?? turn.usage;
      turn.timings = serverTimingsOf(chunk) ?? turn.timings;
      if (turn.firstTokenMs === undefined && wroteSomething(chunk)) turn.firstTokenMs = performance.now() - sent;
      const reason = chunk.response_metadata?.finish_reason;
      if (typeof reason === 'string' && reason) turn.finishReason = reason;
      const reasoning = chunk.additional_kwargs?.reasoning_content;
      if (typeof reasoning === 'string' && reasoning) take({ answer: '', reasoning });
      const piece = textOf(chunk.content);
      if (piece) take(splitter.push(piece));
      if (ended) break;
    }
    if (ended) {
      // Leaving the loop ended the request (the SDK aborts it on return), before the chunk with the usage came: this
      // turn's tokens are llama-server's timings so far (serverTimings.ts), or estimated. Aborted only after the loop
      // is left: before, the SDK's read-ahead would fail and the turn with it, as if the user had stopped it.
      turn.finishReason = 'stop';
      controller.abort();
    } else {
      take(splitter.flush());
      show(turn.text.length); // what was held back, now that nothing follows it
    }
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { partialText: turn.text });
  } finally {
    dispose();
  }
  return turn;
}

function wroteSomething(chunk: AIMessageChunk): boolean {
  return textOf(chunk.content) !== '' || (chunk.tool_call_chunks?.length ?? 0) > 0 || Boolean(chunk.additional_kwargs?.reasoning_content);
}
