/**
 * Turns a model's idea of "a list of paths" into paths. Models answer with JSON arrays, comma
 * lists, Markdown bullets or numbered lists, code fences and quoted or back-ticked names, so
 * every tool (and the LLM tool that picks files) parses lists the same forgiving way.
 * Order is kept; duplicates and blank items are dropped.
 */
export function parsePathList(text: string): string[] {
  const fromJson = parseJsonArray(text);
  const items =
    fromJson ??
    text
      .split(/\r?\n/)
      .filter((line) => !isFenceLine(line))
      .flatMap(splitItems);
  const seen = new Set<string>();
  const paths: string[] = [];
  for (const item of items) {
    for (const path of pathsInItem(cleanItem(item))) {
      if (path && !seen.has(path)) {
        seen.add(path);
        paths.push(path);
      }
    }
  }
  return paths;
}

function parseJsonArray(text: string): string[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

function isFenceLine(line: string): boolean {
  return /^\s*(```|~~~)/.test(line);
}

/** Commas separate items, except inside back-ticks or quotes (a quoted name may contain one). */
function splitItems(line: string): string[] {
  const items: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '`' || char === '"' || char === "'") {
      quote = char;
    } else if (char === ',') {
      items.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  items.push(current);
  return items;
}

/**
 * Small local models wrap paths in prose ("The key files are src/a.ts and b.py."). An item with
 * spaces yields the words that look like paths (a slash or a file extension); a path with a space
 * in its name still arrives whole when the model quotes or back-ticks it.
 */
function pathsInItem({ text, quoted }: CleanItem): string[] {
  if (quoted || !/\s/.test(text)) return [text];
  const quotedParts = [...text.matchAll(/(["'`])([^"'`]+)\1/g)].map((m) => m[2]!.trim());
  const words = text
    .replace(/(["'`])([^"'`]+)\1/g, ' ')
    .split(/\s+/)
    .map((word) => word.replace(/^[("'`]+|[)"'`:;,.!?]+$/g, ''))
    .filter(looksLikePath);
  return [...quotedParts.filter(looksLikePath), ...words];
}

function looksLikePath(word: string): boolean {
  return /[\\/]/.test(word) || /\.[A-Za-z0-9]{1,8}$/.test(word);
}

interface CleanItem {
  text: string;
  /** Back-ticked or quoted by the model: taken whole, spaces included. */
  quoted: boolean;
}

function cleanItem(raw: string): CleanItem {
  let item = raw
    .trim()
    .replace(/^[[\]]+|[[\]]+$/g, '')
    .trim();
  // Bullets and numbering: "- a", "* a", "+ a", "• a", "1. a", "2) a".
  item = item.replace(/^(?:[-*+•]\s+|\d+[.)]\s+)/, '');
  // "`src/a.ts` — the entry point": the back-ticked part is the path.
  const ticked = /`([^`]+)`/.exec(item);
  if (ticked) return { text: (ticked[1] as string).trim(), quoted: true };
  item = item.replace(/[;,]+$/, '').trim();
  // Matching quotes around the whole item.
  const quoted = /^(["'])(.*)\1$/.exec(item);
  if (quoted) return { text: (quoted[2] as string).trim(), quoted: true };
  return { text: item, quoted: false };
}
