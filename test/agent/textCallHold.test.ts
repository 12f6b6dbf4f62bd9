import { strict as assert } from 'node:assert';
import type { JsonSchema } from '../../src/core/agent/textProtocol/jsonSchemaTypes';
import { TextCallHold } from '../../src/core/agent/textCallHold';
import { findTextToolCalls, withoutSpans } from '../../src/core/agent/textToolCalls';

const OFFERED = new Set(['read_file', 'codebase_investigator']);
const SCHEMAS = new Map<string, JsonSchema>([['read_file', { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }]]);

/** Streams `text` through a hold in pieces of `size` characters; returns what the user saw, piece by piece. */
function stream(text: string, size: number, schemas?: ReadonlyMap<string, JsonSchema>): { shown: string; pieces: string[] } {
  const hold = new TextCallHold(OFFERED, (stretch) => {
    const found = findTextToolCalls(stretch, OFFERED, 1, schemas);
    return found.calls.length ? withoutSpans(stretch, found.spans) : stretch;
  });
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(hold.push(text.slice(i, i + size)));
  pieces.push(hold.end());
  return { shown: pieces.join(''), pieces };
}

/** Every split from one character to the whole text at once: chunk boundaries never change what is shown. */
function shownForEverySplit(text: string, schemas?: ReadonlyMap<string, JsonSchema>): Set<string> {
  return new Set(Array.from({ length: text.length }, (_, i) => stream(text, i + 1, schemas).shown));
}

/**
 * While a native turn streams, a tool call the model writes as text is held back and taken out before anyone sees
 * it (a real Qwen2.5-Coder 1.5B wrote its first call as a fenced JSON block, and `codewiki ask` printed it).
 */
describe('holding back tool calls written as text while an answer streams', () => {
  it('takes a fenced JSON call out, whatever the chunk boundaries, and keeps the prose around it', () => {
    const text = 'I will look.\n```json\n{"name": "codebase_investigator", "arguments": {"question": "where?"}}\n```\nDone.';
    assert.deepEqual([...shownForEverySplit(text)], ['I will look.\n\nDone.']);
  });

  it('takes out <tool_call> tags, an XML-element call with its <tools> wrapper, and a whole answer that is one bare call', () => {
    assert.deepEqual([...shownForEverySplit('Reading.\n<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>\n')], ['Reading.\n\n']);
    const xml = 'Checking.\n<tools>\n<read_file path="src/a.ts" />\n</tools>\nok';
    assert.deepEqual([...shownForEverySplit(xml, SCHEMAS)], ['Checking.\n\nok']);
    // Only under `auto` (with the schemas) is an XML element read as a call; otherwise it is shown as written.
    assert.deepEqual([...shownForEverySplit(xml)], [xml]);
    assert.deepEqual([...shownForEverySplit('{"name": "read_file", "arguments": {"path": "a"}}')], ['']);
  });

  it('shows everything else exactly as written: code, JSON that is no call, prose with backticks and braces', () => {
    const texts = [
      'Here:\n```ts\nconst a = { b: 1 };\n```\nand `x`.',
      '```json\n{"path": "src/a.ts"}\n```',
      '```json\n{"name": "delete_everything", "arguments": {}}\n```',
      '{ not json at all',
      'Use <read_file> carefully; `{` is a brace.\n',
      '```\nan unclosed fence',
    ];
    for (const text of texts) assert.deepEqual([...shownForEverySplit(text)], [text], text);
  });

  it('streams ordinary code as it arrives instead of holding the whole fence', () => {
    const { pieces } = stream('```ts\n' + 'const line = 1;\n'.repeat(20) + '```\n', 16);
    assert.ok(pieces.slice(0, 5).join('').includes('const line = 1;'), `the first pieces show code: ${JSON.stringify(pieces.slice(0, 5))}`);
  });

  it('holds a possible call only while it can still be one', () => {
    const { pieces } = stream('```json\n{"name": "read_file", "arguments": {"path": "a"}}\n```', 4);
    assert.ok(
      pieces.slice(0, -1).every((p) => p === ''),
      'nothing of the call is shown before it is judged',
    );
  });
});
