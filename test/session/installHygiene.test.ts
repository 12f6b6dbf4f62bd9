import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm ci` must install quietly (issue 10 §3, "Install noise"): no EBADENGINE warning on a Node that package.json
 * admits, and no "unreviewed install scripts" advisory (npm ≥ 11.16 reads `allowScripts`; npm 12 blocks what is not
 * listed there).
 */
const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

interface LockedPackage {
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}
const locked = Object.entries(lock.packages as Record<string, LockedPackage>).filter(([path]) => path !== '');

describe('install hygiene: engines and install scripts', () => {
  it("every Node version that engines.node admits satisfies every locked package's engines.node", () => {
    const declared = parseRange(manifest.engines.node);
    const ranges = locked.flatMap(([path, pkg]) => {
      const node = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
      return node ? [{ path, text: node, range: parseRange(node) }] : [];
    });
    // Whether a version satisfies a range only changes at a comparator's version, so checking each such version
    // and its next patch covers every version in between.
    const candidates = [declared, ...ranges.map((r) => r.range)]
      .flatMap((range) => range.flatMap((set) => set.map((c) => c.version)))
      .flatMap((v) => [v, [v[0], v[1], v[2] + 1] as Version]);
    const admitted = candidates.filter((v) => satisfies(v, declared));
    assert.ok(
      admitted.some((v) => v[0] === 20),
      'the declared range admits some Node 20',
    );
    const conflicts = ranges.flatMap((r) =>
      admitted.filter((v) => !satisfies(v, r.range)).map((v) => `${r.path.replace(/^.*node_modules\//, '')} (${r.text}) excludes ${v.join('.')}`),
    );
    assert.deepEqual([...new Set(conflicts)], [], `engines.node "${manifest.engines.node}" admits versions dependencies refuse`);
  });

  it('the declared floor is the one package-lock.json records for the project', () => {
    assert.equal(lock.packages[''].engines.node, manifest.engines.node);
  });

  it('every package with an install script has a deliberate allowScripts entry', () => {
    const allowScripts: Record<string, boolean> = manifest.allowScripts ?? {};
    const withScripts = locked.filter(([, pkg]) => pkg.hasInstallScript).map(([path]) => path.replace(/^.*node_modules\//, ''));
    assert.ok(withScripts.includes('esbuild'), 'the lock file lists install scripts at all');
    const missing = withScripts.filter((name) => !Object.keys(allowScripts).some((key) => key === name || key.startsWith(`${name}@`)));
    assert.deepEqual(missing, []);
  });

  it("approves the build tools' binaries and denies keytar, which only vsce login/publish would use", () => {
    // esbuild and @vscode/vsce-sign fetch their platform binary in the install script: the build and `vsce package`
    // need them. keytar (an optional dependency of @vscode/vsce) compiles or downloads a native keychain module that
    // vsce only uses to store a publisher token; packaging never needs it, and vsce falls back without it.
    assert.equal(manifest.allowScripts.esbuild, true);
    assert.equal(manifest.allowScripts['@vscode/vsce-sign'], true);
    assert.equal(manifest.allowScripts.keytar, false);
  });
});

describe('install hygiene: the range check itself', () => {
  const cases: Array<[string, string, boolean]> = [
    ['20.19.0', '>=20.19', true],
    ['20.18.9', '>= 20.19.0', false],
    ['22.12.0', '^20.19.0 || ^22.13.0 || >=24', false],
    ['22.13.0', '^20.19.0 || ^22.13.0 || >=24', true],
    ['21.0.0', '^20.19.0 || ^22.13.0 || >=24', false],
    ['20.5.0', '20 || >=22', true],
    ['21.1.0', '20 || >=22', false],
    ['0.7.1', '>=0.6.11 <=0.7.0 || >=0.7.3', false],
    ['20.0.0', '*', true],
    ['14.16.0', '>=16 || 14 >=14.17', false],
    ['20.0.0', '^0.12', false],
    ['0.12.5', '^0.12', true],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['20.0.0', '<20', false],
    ['19.9.9', '<20', true],
  ];
  for (const [version, range, expected] of cases) {
    it(`${version} ${expected ? 'satisfies' : 'does not satisfy'} ${range}`, () => {
      assert.equal(satisfies(parseVersion(version), parseRange(range)), expected);
    });
  }
});

// A minimal reading of npm's range syntax, enough for engines fields: `||` alternatives of space-separated
// comparators (<, <=, >, >=, =, ^, ~, a bare or partial version, `*`). semver is in node_modules only as a
// dependency of other packages, so the test does not import it.
type Version = [number, number, number];
interface Comparator {
  op: '<' | '<=' | '>' | '>=' | '=';
  version: Version;
}
type Range = Comparator[][];

function parseVersion(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map(Number);
  return [major, minor, patch];
}

function parseRange(text: string): Range {
  return text.split('||').map((alternative) => {
    const tokens = alternative
      .trim()
      .replace(/(<=|>=|<|>|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return tokens.flatMap(parseComparator);
  });
}

function parseComparator(token: string): Comparator[] {
  const match = /^(<=|>=|<|>|=|\^|~)?v?(\*|x|\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(token);
  if (!match) throw new Error(`unsupported range token "${token}"`);
  const [, op = '', ...parts] = match;
  const given = parts.filter((p) => p !== undefined && !/^[x*]$/.test(p)).map(Number);
  const low: Version = [given[0] ?? 0, given[1] ?? 0, given[2] ?? 0];
  if (given.length === 0) return [];
  if (op === '^') {
    const firstNonZero = given.findIndex((n) => n !== 0);
    const bump = firstNonZero === -1 ? given.length - 1 : firstNonZero;
    return [
      { op: '>=', version: low },
      { op: '<', version: nextAt(low, bump) },
    ];
  }
  if (op === '~')
    return [
      { op: '>=', version: low },
      { op: '<', version: nextAt(low, Math.min(given.length - 1, 1)) },
    ];
  if (op === '' || op === '=') {
    return given.length === 3
      ? [{ op: '=', version: low }]
      : [
          { op: '>=', version: low },
          { op: '<', version: nextAt(low, given.length - 1) },
        ];
  }
  // A partial version after > or <= means the whole prefix: >20 is >=21.0.0, <=20 is <21.0.0.
  if (given.length < 3 && op === '>') return [{ op: '>=', version: nextAt(low, given.length - 1) }];
  if (given.length < 3 && op === '<=') return [{ op: '<', version: nextAt(low, given.length - 1) }];
  return [{ op: op as Comparator['op'], version: low }];
}

function nextAt(version: Version, index: number): Version {
  return version.map((n, i) => (i < index ? n : i === index ? n + 1 : 0)) as Version;
}

function satisfies(version: Version, range: Range): boolean {
  return range.some((set) =>
    set.every(({ op, version: bound }) => {
      const order = compare(version, bound);
      return op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : op === '>=' ? order >= 0 : order === 0;
    }),
  );
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
