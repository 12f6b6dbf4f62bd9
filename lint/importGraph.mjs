import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The TypeScript import graph, read from disk on demand and cached per file. Every kind of import counts: `import`,
 * `import type`, `export … from`, `import()`, `require()` and `import('…').Type`, because a type cycle is still a
 * cycle. Only relative specifiers make edges; packages are outside the graph. TypeScript's preProcessFile only
 * scans, it does not parse or type-check, so reading all of src/core takes a few milliseconds.
 *
 * A cached file is trusted for FRESH_MS, then checked against its modification time: one lint run sees one tree,
 * and an editor's long-lived ESLint still notices a saved change.
 */
const FRESH_MS = 2_000;
const SOURCE = /\.(ts|mts|cts)$/;

/** @type {Map<string, { checkedAt: number, mtimeMs: number, text: string, imports: string[] }>} */
const files = new Map();
/** @type {Map<string, { checkedAt: number, files: string[] }>} */
const folders = new Map();

/** The source file a relative specifier names, or undefined (a package, a JSON file, a file that does not exist). */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [`${base}.ts`, `${base}.mts`, base.replace(/\.m?js$/, (ext) => (ext === '.mjs' ? '.mts' : '.ts')), join(base, 'index.ts')];
  return candidates.find((candidate) => SOURCE.test(candidate) && isFile(candidate));
}

/** The resolved imports of a file on disk. */
export function importsOf(file) {
  const now = Date.now();
  const cached = files.get(file);
  if (cached && now - cached.checkedAt < FRESH_MS) return cached.imports;
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    files.delete(file);
    return [];
  }
  if (cached && cached.mtimeMs === mtimeMs) {
    cached.checkedAt = now;
    return cached.imports;
  }
  const text = readFileSync(file, 'utf8');
  const imports = scan(file, text);
  files.set(file, { checkedAt: now, mtimeMs, text, imports });
  return imports;
}

/** The resolved imports of `text` as the content of `file`: the linted file, as the editor has it. */
export function importsInText(file, text) {
  const onDisk = importsOf(file);
  return files.get(file)?.text === text ? onDisk : scan(file, text);
}

function scan(file, text) {
  const found = ts.preProcessFile(text, true, true).importedFiles.map((entry) => resolveImport(file, entry.fileName));
  return [...new Set(found.filter(Boolean))];
}

/** Every source file under `folder`, recursively. */
export function sourceFilesUnder(folder) {
  const now = Date.now();
  const cached = folders.get(folder);
  if (cached && now - cached.checkedAt < FRESH_MS) return cached.files;
  const list = listSources(folder);
  folders.set(folder, { checkedAt: now, files: list });
  return list;
}

/**
 * A shortest import path from `start` to `goal`, both included, or undefined when there is none. `importsOfFile`
 * lets the caller replace one file's imports (the file being linted, whose text may not be saved). With
 * `leaveStart`, the path must leave `start` first, so `findPath(f, f, …)` finds a cycle through f.
 */
export function findPath(start, goal, importsOfFile, { leaveStart = false } = {}) {
  const previous = new Map(leaveStart ? [] : [[start, undefined]]);
  const queue = [start];
  let first = leaveStart;
  while (queue.length) {
    const file = queue.shift();
    if (file === goal && !first) {
      if (goal === start && !leaveStart) return [start];
      const path = [goal];
      for (let at = previous.get(goal); at !== start; at = previous.get(at)) path.unshift(at);
      return [start, ...path];
    }
    first = false;
    for (const next of importsOfFile(file)) {
      if (previous.has(next)) continue;
      previous.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

function listSources(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = join(folder, entry.name);
    if (entry.isDirectory()) return listSources(full);
    return entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
