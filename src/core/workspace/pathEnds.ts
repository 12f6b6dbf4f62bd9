/**
 * Paths as answers cite them: models (and people) write the end of a path (`sessions.py`, `globset/src/lib.rs`) as
 * often as the whole of it. An end names a file when it is the file's whole path, or follows a `/` in it.
 */
export function pathEndsWith(path: string, end: string): boolean {
  return path === end || path.endsWith(`/${end}`);
}

/** The one path of `paths` that `end` names (pathEndsWith), or undefined when none or several do. */
export function onlyPathEndingWith(paths: Iterable<string>, end: string): string | undefined {
  let found: string | undefined;
  for (const path of paths) {
    if (!pathEndsWith(path, end)) continue;
    if (found !== undefined) return undefined;
    found = path;
  }
  return found;
}
