import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRequestStream, splitToolRequests } from '../../src/core/agent/textProtocol/toolRequestStream';
import { parseToolRequest } from '../../src/core/agent/textProtocol/parseToolRequest';
import { nonFlatParameters, type JsonSchema } from '../../src/core/agent/textProtocol/jsonSchemaTypes';
import { renderToolDefinitions } from '../../src/core/agent/textProtocol/toolDefinitionsText';
import { findTextToolCalls } from '../../src/core/agent/textToolCalls';
import type { OpenAiFunctionTool } from '../../src/core/agent/agentToolSet';

const READ_FILE: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File path' },
    start_line: { type: 'integer', minimum: 1 },
    verbose: { type: 'boolean', default: false },
    paths: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
    filter: { type: 'object', properties: { ext: { type: 'string' } } },
  },
  required: ['path'],
};
const SCHEMAS = new Map<string, JsonSchema>([
  ['read_file', READ_FILE],
  ['write_file', { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }],
]);

const BLOCK_A = '<<<[TOOL_REQUEST]>>>\ntool_name: 「始」read_file「末」\npath: 「始」src/a.ts「末」\nstart_line: 「始」3「末」\n<<<[END_TOOL_REQUEST]>>>';
const BLOCK_B =
  '<<<[TOOL_REQUEST]>>>\ntool_name: 「始」write_file「末」\npath: 「始」notes.md「末」\ncontent: 「始」\n# 「標題」\nline with 「末」 inside\nkey: value\n「末」\n<<<[END_TOOL_REQUEST]>>>';
const ANSWER = `Let me look <<< at it.\n${BLOCK_A}\nthen write.\n${BLOCK_B}\nDone.`;
// What follows the first request was written before any result came back: it is not shown (toolRequestStream.ts).
const VISIBLE = 'Let me look <<< at it.\n';

function streamIn(pieces: string[]): { visible: string; stream: ToolRequestStream } {
  const stream = new ToolRequestStream();
  let visible = '';
  for (const piece of pieces) visible += stream.push(piece);
  visible += stream.end();
  return { visible, stream };
}

describe('text tool protocol: the streaming request parser', () => {
  it('finds the same blocks and the same visible text wherever the stream is split in two', () => {
    const whole = splitToolRequests(ANSWER);
    assert.equal(whole.visible, VISIBLE);
    assert.equal(whole.blocks.length, 2);
    for (let at = 0; at <= ANSWER.length; at++) {
      const { visible, stream } = streamIn([ANSWER.slice(0, at), ANSWER.slice(at)]);
      assert.equal(visible, VISIBLE, `split at ${at}`);
      assert.deepEqual(stream.blocks, whole.blocks, `split at ${at}`);
    }
  });

  it('copes with one character per chunk and with three-way splits around the markers', () => {
    const whole = splitToolRequests(ANSWER);
    const single = streamIn([...ANSWER]);
    assert.equal(single.visible, VISIBLE);
    assert.deepEqual(single.stream.blocks, whole.blocks);
    const endAt = ANSWER.indexOf('<<<[END_TOOL_REQUEST]>>>');
    for (let a = endAt - 3; a < endAt + 26; a++) {
      for (let b = a; b < endAt + 26; b++) {
        const { visible, stream } = streamIn([ANSWER.slice(0, a), ANSWER.slice(a, b), ANSWER.slice(b)]);
        assert.equal(visible, VISIBLE);
        assert.deepEqual(stream.blocks, whole.blocks);
      }
    }
  });

  it('reads values with new lines, 「」 and even 「末」 inside, and coerces them by the schema', () => {
    const [a, b] = splitToolRequests(ANSWER).blocks.map((block, i) => parseToolRequest(block, SCHEMAS, `c${i}`));
    assert.deepEqual(a, { id: 'c0', name: 'read_file', rawArgs: '{"path":"src/a.ts","start_line":3}', args: { path: 'src/a.ts', start_line: 3 } });
    assert.equal(b!.name, 'write_file');
    assert.deepEqual(b!.args, { path: 'notes.md', content: '# 「標題」\nline with 「末」 inside\nkey: value\n' });
  });

  it('coerces booleans, JSON arrays and objects, and leaves what does not fit for validation', () => {
    const block = {
      closed: true,
      body: 'tool_name: 「始」read_file「末」\npath: 「始」a「末」\nverbose: 「始」yes「末」\nfilter: 「始」{"ext": "ts"}「末」\nstart_line: 「始」three「末」\npaths: 「始」a.ts, b.ts「末」',
    };
    assert.deepEqual(parseToolRequest(block, SCHEMAS, 'x').args, { path: 'a', verbose: true, filter: { ext: 'ts' }, start_line: 'three', paths: 'a.ts, b.ts' });
  });

  it('turns unreadable, unnamed, unclosed and cut-off blocks into calls with an error for the model', () => {
    const garbage = parseToolRequest({ closed: true, body: 'read_file src/a.ts please' }, SCHEMAS, 'g');
    assert.match(garbage.argsError!, /could not be read.*tool_name: 「始」/s);
    assert.equal(garbage.args, undefined);
    assert.match(parseToolRequest({ closed: true, body: 'path: 「始」a「末」' }, SCHEMAS, 'n').argsError!, /no tool_name/);
    assert.match(
      parseToolRequest({ closed: true, body: 'tool_name: 「始」read_file「末」\npath: 「始」a' }, SCHEMAS, 'u').argsError!,
      /"path" is not closed with 「末」/,
    );
    const cut = streamIn(['Reading.\n<<<[TOOL_REQUEST]>>>\ntool_name: 「始」read_file「末」\npath: 「始」a「末」\n']);
    assert.equal(cut.visible, 'Reading.\n');
    assert.deepEqual(
      cut.stream.blocks.map((b) => b.closed),
      [false],
    );
    assert.match(parseToolRequest(cut.stream.blocks[0]!, SCHEMAS, 'c').argsError!, /not closed with <<<\[END_TOOL_REQUEST\]>>>/);
  });

  it('leaves garbage and near-markers in the visible text, and holds back nothing at the end', () => {
    const text = '<<<[TOOL_REQ no <<<[ <<<[END_TOOL_REQUEST]>>> 「始」x「末」 <<<';
    const { visible, stream } = streamIn([...text]);
    assert.equal(visible, text);
    assert.equal(stream.blocks.length, 0);
  });

  it('parses the near-miss JSON forms (fenced and bare) that go through the same validation', () => {
    const offered = new Set(['read_file']);
    const fenced = findTextToolCalls('```json\n{"tool": "read_file", "arguments": {"path": "a"}}\n```', offered, 1);
    assert.deepEqual(
      fenced.calls.map((c) => [c.name, c.args]),
      [['read_file', { path: 'a' }]],
    );
    const bare = findTextToolCalls('{"name": "read_file", "arguments": {"path": "b"}}', offered, 1);
    assert.deepEqual(
      bare.calls.map((c) => [c.name, c.args]),
      [['read_file', { path: 'b' }]],
    );
    assert.equal(findTextToolCalls('{"name": "rm_rf", "arguments": {}}', offered, 1).calls.length, 0);
  });
});

describe('text tool protocol: the definitions block', () => {
  const definitions: OpenAiFunctionTool[] = [{ type: 'function', function: { name: 'read_file', description: 'Read a file.', parameters: READ_FILE } }];

  it('lists each parameter with its type, required flag and default, and one example request', () => {
    const text = renderToolDefinitions(definitions);
    assert.match(text, /^<<<\[TOOL_DEFINITION\]>>>\ntool_name: 「始」read_file「末」\ndescription: 「始」Read a file\.「末」\nparameters: 「始」\n/);
    assert.match(text, /  - path \(string, required\): File path\./);
    assert.match(text, /  - start_line \(integer\)\n/);
    assert.match(text, /  - verbose \(boolean\): Default: false\./);
    assert.match(
      text,
      /example: 「始」\n<<<\[TOOL_REQUEST\]>>>\ntool_name: 「始」read_file「末」\npath: 「始」README\.md「末」\n<<<\[END_TOOL_REQUEST\]>>>\n「末」$/,
    );
    const example = splitToolRequests(text.slice(text.indexOf('example:'))).blocks[0]!;
    assert.deepEqual(parseToolRequest(example, SCHEMAS, 'e').args, { path: 'README.md' }, 'the example parses');
  });

  it('adds a format note for parameters that are not flat, and names them', () => {
    assert.deepEqual(nonFlatParameters(READ_FILE), ['filter']);
    assert.match(renderToolDefinitions(definitions), /Note: filter is not a plain value: write it as one JSON value/);
  });
});

describe('docs/agent.md: the text protocol examples', () => {
  it('every request block in the docs parses into a call with arguments', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'agent.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Tool protocols'), doc.indexOf('## For integrators'));
    const blocks = splitToolRequests(section).blocks;
    assert.ok(blocks.length >= 2, `found ${blocks.length}`);
    const schemas = new Map<string, JsonSchema>([
      ['read_file', READ_FILE],
      ['edit_file', { type: 'object', properties: { path: { type: 'string' }, old_text: { type: 'string' }, new_text: { type: 'string' } } }],
    ]);
    for (const [i, block] of blocks.entries()) {
      const call = parseToolRequest(block, schemas, `doc${i}`);
      assert.ok(call.args && schemas.has(call.name), `block ${i}: ${call.argsError}`);
    }
  });
});
