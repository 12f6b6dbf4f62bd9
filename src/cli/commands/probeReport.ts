import type { ProbeAttempt, ProbeOutcome, ProbeResult, RecordedExchange } from '../../core/toolTester';

const LABEL = { native: 'native tool calls', text: 'text protocol' } as const;

const OUTCOME: Record<ProbeOutcome, string> = {
  works: '✓ works',
  rejected: '✗ rejected',
  'no-call': '✗ no call',
  'text-call': '✗ call written as text',
  'wrong-call': '✗ wrong call',
  failed: '✗ failed',
};

/** `codewiki probe`'s report: one line per protocol, the verdict, the setting that matches, and with `raw` every exchange. */
export function formatProbeReport(result: ProbeResult, raw: boolean): string {
  const lines = [`Probe of ${result.model} at ${result.endpoint}`, ''];
  for (const attempt of [result.native, result.text]) lines.push(...attemptLines(attempt));
  lines.push('', result.summary);
  lines.push(
    result.suggestion
      ? `Suggested: "codewiki.agent.toolProtocol": "${result.suggestion}" in the settings; --tool-protocol ${result.suggestion} for "codewiki ask".`
      : 'Suggested: no tool protocol works with this model; "codewiki ask --no-tools" answers without tools.',
  );
  if (raw) for (const attempt of [result.native, result.text]) lines.push('', ...rawLines(attempt));
  return `${lines.join('\n')}\n`;
}

function attemptLines(attempt: ProbeAttempt): string[] {
  const lines = [`${LABEL[attempt.protocol].padEnd(18)} ${OUTCOME[attempt.outcome]}: ${attempt.detail}`];
  if (attempt.call) lines.push(`${' '.repeat(19)}call: ${attempt.call.name} ${attempt.call.rawArgs}`);
  // What the model said instead is the quickest clue when it made no call.
  else if (attempt.answer.trim()) lines.push(`${' '.repeat(19)}answer: ${oneLine(attempt.answer)}`);
  return lines;
}

function rawLines(attempt: ProbeAttempt): string[] {
  const count = attempt.exchanges.length;
  if (!count) return [`━━━ ${LABEL[attempt.protocol]}: no request was sent ━━━`];
  return attempt.exchanges.flatMap((exchange, index) => [`━━━ ${LABEL[attempt.protocol]}: exchange ${index + 1} of ${count} ━━━`, ...exchangeLines(exchange)]);
}

function exchangeLines(exchange: RecordedExchange): string[] {
  const lines = [`→ ${exchange.method} ${exchange.url}`];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) lines.push(`  ${name}: ${value}`);
  if (exchange.requestBody) lines.push(indent(prettyJson(exchange.requestBody)));
  if (exchange.status !== undefined) lines.push(`← ${exchange.status}`);
  if (exchange.responseBody) lines.push(indent(prettyJson(exchange.responseBody).trimEnd()));
  if (exchange.error) lines.push(`✗ ${exchange.error}`);
  return lines;
}

/** Request bodies are one long JSON line; indented they can be read. Streamed answers (SSE lines) stay as sent. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Blank lines (the gaps between SSE events) stay empty, with no trailing spaces. */
function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ');
}

function oneLine(text: string): string {
  const line = text.trim().replace(/\s*\n\s*/g, ' ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
