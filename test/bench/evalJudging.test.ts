import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { citesDefinition, definitionRanges } from '../../bench/eval/definitionLines';
import { filesNamed } from '../../bench/eval/endToEndEval';
import { makeTempFolder, type TempFolder } from '../tools/helpers/tempWorkspace';

const TREE_GO = [
  'package gin',
  '',
  'func (n *node) addRoute(path string) {',
  '\tn.path = path',
  '}',
  '',
  'func (n *node) getValue(path string) (value string) {',
  '\tfor _, c := range n.children {',
  '\t\tvalue = c.path',
  '\t}',
  '\treturn value',
  '}',
  '',
].join('\n');

/** `npm run eval:agent` judges where an answer points, not only which file it names: these are its rules. */
describe('the evaluation: an answer at the definition a question asks for', () => {
  let folder: TempFolder;
  let store: string;
  beforeEach(() => {
    folder = makeTempFolder('codewiki-eval-judge-');
    folder.write({ 'tree.go': TREE_GO, 'other/tree.go': TREE_GO });
    store = mkdtempSync(join(tmpdir(), 'codewiki-eval-store-'));
  });
  afterEach(() => {
    folder.cleanup();
    rmSync(store, { recursive: true, force: true });
  });

  it('finds the asked-for definition in the answering files only, and counts a cited line inside it', async () => {
    const question = { question: 'Where is a path looked up in the route tree?', files: ['tree.go'], symbol: 'getValue' };
    const plain = { question: 'Where is the router?', files: ['tree.go'] };
    const ranges = await definitionRanges(folder.path, store, [question, plain]);
    assert.deepEqual(ranges.get(question), [{ path: 'tree.go', line: 7, endLine: 12 }], 'other/tree.go defines it too, but does not answer');
    assert.equal(ranges.has(plain), false, 'a question without a symbol is judged by its file alone');
    const getValue = ranges.get(question)!;
    assert.equal(citesDefinition('It is in tree.go:9, where each child is read.', getValue), true);
    assert.equal(citesDefinition('The answer is in the `tree.go` file at line 7.', getValue), true);
    assert.equal(citesDefinition('tree.go:3 adds a route; tree.go:9 looks it up.', getValue), false, 'the first place cited decides');
    assert.equal(citesDefinition('It is in tree.go, the getValue method.', getValue), false, 'no line, no place');
    assert.equal(citesDefinition('See other/tree.go:9.', getValue), false, 'other/tree.go does not answer');
    // An answer may cite the end of a path: `tree.go:9` for gin/tree.go, as the evaluation names files.
    assert.equal(citesDefinition('It is in tree.go:9.', [{ path: 'gin/tree.go', line: 7, endLine: 12 }]), true);
    assert.equal(citesDefinition('It is in ree.go:9.', [{ path: 'gin/tree.go', line: 7, endLine: 12 }]), false, 'a path ends at a slash');
  });
});

describe('the evaluation: the files an answer names', () => {
  let folder: TempFolder;
  beforeEach(() => {
    folder = makeTempFolder('codewiki-eval-named-');
    folder.write({
      'crates/globset/src/lib.rs': 'pub struct GlobSet;\n',
      'crates/ignore/src/lib.rs': 'pub struct Walk;\n',
      'src/sessions.py': 'class Session: pass\n',
    });
    execFileSync('git', ['init', '-q'], { cwd: folder.path });
    execFileSync('git', ['add', '.'], { cwd: folder.path });
  });
  afterEach(() => folder.cleanup());

  it('reads a path, or the end of a path that only one file has, as the chat opens it; an end two files share names none', () => {
    assert.deepEqual(filesNamed('See crates/globset/src/lib.rs:3 and ./src/sessions.py.', folder.path), ['crates/globset/src/lib.rs', 'src/sessions.py']);
    assert.deepEqual(filesNamed('It is globset/src/lib.rs:566, then sessions.py.', folder.path), ['crates/globset/src/lib.rs', 'src/sessions.py']);
    assert.deepEqual(filesNamed('It is in lib.rs, or in src/lib.rs.', folder.path), [], 'two files end so');
  });
});
