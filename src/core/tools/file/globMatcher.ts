import picomatch from 'picomatch';

/**
 * Glob filters for the file tools, matched by picomatch (`*`, `**`, `?`, `[abc]`, `[!abc]`, `{ts,tsx}`), plus two
 * conventions of our own:
 * - several patterns separated by commas ("*.ts, *.tsx"), as models like to write them;
 * - as in .gitignore, a pattern without a slash matches the file name at any depth, and one with a slash matches
 *   the path from the folder being searched or from the workspace root, whichever fits.
 * Dot files match like any other file: the walk has already dropped what .gitignore and the secret policy exclude.
 */
export type PathMatcher = (relativeToStart: string, relativeToRoot: string) => boolean;

export function compileGlob(glob: string): PathMatcher {
  const patterns = splitTopLevel(glob, ',')
    .map((p) => p.trim().replace(/^\.\//, ''))
    .filter((p) => p !== '');
  if (patterns.length === 0) return () => true;
  const tests = patterns.map((pattern) => {
    const anchored = pattern.replace(/^\//, '');
    const isMatch = compilePattern(pattern, anchored);
    if (!anchored.includes('/')) return (fromStart: string) => isMatch(fromStart.slice(fromStart.lastIndexOf('/') + 1));
    return (fromStart: string, fromRoot: string) => isMatch(fromStart) || isMatch(fromRoot);
  });
  return (fromStart, fromRoot) => tests.some((test) => test(fromStart, fromRoot));
}

function compilePattern(pattern: string, anchored: string): (path: string) => boolean {
  try {
    // strictBrackets and debug: an unclosed bracket or a bad range is an error the model is told about, not a pattern
    // that silently never matches (picomatch otherwise turns an invalid regex into one that matches nothing).
    const regex = picomatch.makeRe(toPicomatch(anchored), { dot: true, strictBrackets: true, noextglob: true, debug: true });
    return (path) => regex.test(path);
  } catch {
    throw new Error(`Invalid glob pattern "${pattern}"`);
  }
}

/**
 * The glob dialect the tools document, in picomatch's terms: `[!a]` is a negated class (picomatch 4 keeps the `!`
 * literally inside brackets), and parentheses are file-name characters, not regex groups.
 */
function toPicomatch(glob: string): string {
  return glob.replace(/\[!/g, '[^').replace(/[()]/g, '\\$&');
}

/** Splits on `separator` outside braces, so "{a,b}" survives "x,{a,b}". */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '{') depth++;
    else if (char === '}') depth = Math.max(0, depth - 1);
    if (char === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}
