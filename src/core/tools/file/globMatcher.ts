/**
 * Glob filters for the file tools: `*`, `**`, `?`, `[abc]`, `{ts,tsx}`, and several patterns
 * separated by commas ("*.ts, *.tsx", as models like to write). As in .gitignore, a pattern
 * without a slash matches the file name at any depth; one with a slash matches the path from the
 * folder being searched (or from the workspace root, whichever fits).
 */
export type PathMatcher = (relativeToStart: string, relativeToRoot: string) => boolean;

export function compileGlob(glob: string): PathMatcher {
  const patterns = splitTopLevel(glob, ',')
    .map((p) => p.trim().replace(/^\.\//, ''))
    .filter((p) => p !== '');
  if (patterns.length === 0) return () => true;
  const tests = patterns.map((pattern) => {
    const anchored = pattern.replace(/^\//, '');
    const regex = compilePattern(pattern, anchored);
    if (!anchored.includes('/')) {
      return (fromStart: string) => regex.test(fromStart.slice(fromStart.lastIndexOf('/') + 1));
    }
    return (fromStart: string, fromRoot: string) => regex.test(fromStart) || regex.test(fromRoot);
  });
  return (fromStart, fromRoot) => tests.some((test) => test(fromStart, fromRoot));
}

function compilePattern(pattern: string, anchored: string): RegExp {
  try {
    return new RegExp(`^${globToRegexSource(anchored)}$`);
  } catch {
    throw new Error(`Invalid glob pattern "${pattern}"`);
  }
}

function globToRegexSource(glob: string): string {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        i += slashAfter ? 2 : 1;
        // "**/" may match no folders at all; a bare "**" matches anything.
        source += slashAfter ? '(?:.*/)?' : '.*';
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) {
        source += '\\[';
      } else {
        const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = end;
      }
    } else if (char === '{') {
      const end = matchingBrace(glob, i);
      if (end < 0) {
        source += '\\{';
      } else {
        const options = splitTopLevel(glob.slice(i + 1, end), ',').map(globToRegexSource);
        source += `(?:${options.join('|')})`;
        i = end;
      }
    } else {
      source += char.replace(/[.+^${}()|\\\]]/g, '\\$&');
    }
  }
  return source;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
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
