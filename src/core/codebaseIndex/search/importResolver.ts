/**
 * Imports as written (`./util`, `..models`, `os.path`, `crate::search::Searcher`, `github.com/x/y/render`,
 * `"config.h"`) to the workspace files they most likely mean, by path suffix: no module system is
 * modelled, so a spec that fits more than a few files is left out rather than guessed.
 */
const MAX_TARGETS = 8;
const SOURCE_EXTENSION = /\.(?:[cm]?[jt]sx?|py|pyi|go|rs|java|cs|rb|php|h|hh|hpp|hxx|c|cc|cpp|cxx)$/;

export class ImportResolver {
  /** Path without extension → files; also its last one, two and three segments. */
  private readonly byStem = new Map<string, number[]>();
  /** Folder path, and its last segments likewise → files directly in it (Go imports packages, i.e. folders). */
  private readonly byFolder = new Map<string, number[]>();

  constructor(files: Iterable<[number, string]>) {
    for (const [id, path] of files) {
      const stem = path.replace(SOURCE_EXTENSION, '');
      const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
      for (const key of suffixes(stem)) push(this.byStem, key, id);
      if (folder) for (const key of suffixes(folder)) push(this.byFolder, key, id);
      // `pkg/__init__.py` and `dir/index.ts` are imported by the folder's name.
      if (/\/(?:__init__|index|mod)$/.test(stem)) for (const key of suffixes(folder)) push(this.byStem, key, id);
    }
  }

  resolve(spec: string, fromPath: string): number[] {
    const path = toPathLike(spec, fromPath);
    if (!path) return [];
    const exact = this.byStem.get(path);
    if (exact && exact.length <= MAX_TARGETS) return exact;
    const segments = path.split('/').filter((s) => s && s !== '.');
    for (let take = Math.min(3, segments.length); take >= 1; take--) {
      const key = segments.slice(-take).join('/');
      const found = this.byStem.get(key) ?? (take >= 2 || segments.length === 1 ? this.byFolder.get(key) : undefined);
      if (found && found.length <= MAX_TARGETS) return found;
      if (found) return [];
    }
    return [];
  }
}

function toPathLike(spec: string, fromPath: string): string | undefined {
  const folder = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
  if (spec.startsWith('./') || spec.startsWith('../')) return normalize(`${folder}/${spec}`);
  const pythonRelative = /^(\.+)(.*)$/.exec(spec);
  if (pythonRelative) {
    const up = pythonRelative[1]!.length - 1;
    const base = folder
      .split('/')
      .slice(0, Math.max(0, folder.split('/').length - up))
      .join('/');
    return normalize(`${base}/${pythonRelative[2]!.replace(/\./g, '/')}`);
  }
  if (spec.includes('::'))
    return spec
      .replace(/^(crate|self|super)::/, '')
      .replace(/::\{.*$/, '')
      .replace(/::\*$/, '')
      .split('::')
      .join('/');
  if (/^[\w.]+$/.test(spec) && spec.includes('.') && !SOURCE_EXTENSION.test(spec)) return spec.replace(/\.\*$/, '').split('.').join('/');
  return spec.replace(SOURCE_EXTENSION, '');
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part && part !== '.') out.push(part);
  }
  return out.join('/').replace(SOURCE_EXTENSION, '');
}

function suffixes(path: string): string[] {
  const parts = path.split('/');
  const keys = [path];
  for (let take = 1; take <= 3 && take < parts.length; take++) keys.push(parts.slice(-take).join('/'));
  return keys;
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(id)) list.push(id);
  } else map.set(key, [id]);
}
