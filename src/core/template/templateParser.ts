/**
 * Templates are strings with `{reference}` placeholders. A reference is a variable name
 * followed by property and index access: `{files.items[0].path}`, `{result["odd key"]}`,
 * optionally with a default for a missing value: `{review ?? "none"}` (a quoted string, a
 * number, true, false or null). A reference with a default also says "this step can do without
 * the value", so a skipped producer does not skip the step that reads it this way.
 * `{{` and `}}` are literal braces (the same escape LangChain's f-strings use), and a `{`
 * that does not start a valid reference is an error rather than silently literal text, so a
 * typo never turns into a prompt that quietly lacks its data.
 */

export type PathPart = string | number;

export interface Reference {
  /** The text between the braces, for messages. */
  source: string;
  variable: string;
  path: PathPart[];
  /** 0-based offset of the `{` in the template. */
  offset: number;
  /** Present when written `{name ?? default}`: used when the value is missing or null. */
  fallback?: { value: string | number | boolean | null };
}

export type TemplateSegment = { kind: 'text'; text: string } | { kind: 'ref'; ref: Reference };

export interface ParsedTemplate {
  segments: TemplateSegment[];
  /** Set when the whole template is exactly one reference: its raw value passes through. */
  soleReference?: Reference;
}

export class TemplateSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'TemplateSyntaxError';
  }
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;

export function parseTemplate(template: string): ParsedTemplate {
  const segments: TemplateSegment[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '{' && template[i + 1] === '{') {
      text += '{';
      i += 2;
    } else if (ch === '}' && template[i + 1] === '}') {
      text += '}';
      i += 2;
    } else if (ch === '{') {
      const close = template.indexOf('}', i);
      if (close < 0) throw new TemplateSyntaxError(`unclosed "{" (write {{ for a literal brace)`, i);
      const ref = parseReference(template.slice(i + 1, close), i);
      if (text) segments.push({ kind: 'text', text });
      text = '';
      segments.push({ kind: 'ref', ref });
      i = close + 1;
    } else {
      text += ch;
      i++;
    }
  }
  if (text) segments.push({ kind: 'text', text });
  const only = segments.length === 1 && segments[0].kind === 'ref' ? segments[0].ref : undefined;
  return { segments, soleReference: only };
}

function parseReference(source: string, offset = 0): Reference {
  const bad = (why: string) => new TemplateSyntaxError(`"{${source}}" is not a valid reference: ${why} (write {{ and }} for literal braces)`, offset);
  const trimmed = source.trim();
  IDENTIFIER.lastIndex = 0;
  const head = IDENTIFIER.exec(trimmed);
  if (!head) throw bad('it must start with a variable name');
  const path: PathPart[] = [];
  let i = head[0].length;
  let fallback: Reference['fallback'];
  while (i < trimmed.length) {
    const rest = trimmed.slice(i).trimStart();
    if (rest.startsWith('??')) {
      fallback = { value: parseDefault(rest.slice(2).trim(), bad) };
      break;
    }
    if (trimmed[i] === '.') {
      IDENTIFIER.lastIndex = i + 1;
      const name = IDENTIFIER.exec(trimmed);
      if (!name) throw bad(`expected a property name after "." at ${i + 1}`);
      path.push(name[0]);
      i = IDENTIFIER.lastIndex;
    } else if (trimmed[i] === '[') {
      const end = trimmed.indexOf(']', i);
      if (end < 0) throw bad('unclosed "["');
      path.push(parseIndex(trimmed.slice(i + 1, end).trim(), bad));
      i = end + 1;
    } else {
      throw bad(`unexpected "${trimmed[i]}"`);
    }
  }
  return fallback ? { source: trimmed, variable: head[0], path, offset, fallback } : { source: trimmed, variable: head[0], path, offset };
}

/** The literal after `??`: JSON-like scalars, or a single-quoted string. */
function parseDefault(text: string, bad: (why: string) => Error): string | number | boolean | null {
  if (/^"(?:[^"\\]|\\.)*"$/.test(text)) return JSON.parse(text) as string;
  const single = /^'([^']*)'$/.exec(text);
  if (single) return single[1];
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  throw bad(`the default after "??" must be a quoted string, a number, true, false or null, got "${text}"`);
}

function parseIndex(inner: string, bad: (why: string) => Error): PathPart {
  if (/^-?\d+$/.test(inner)) return Number(inner);
  const quoted = /^(["'])(.*)\1$/.exec(inner);
  if (quoted) return quoted[2];
  throw bad(`"[${inner}]" must be a number or a quoted key`);
}

/** Every reference in a value that may be a template string, or an object/list of them. */
export function collectReferences(value: unknown, into: Reference[] = []): Reference[] {
  if (typeof value === 'string') {
    for (const segment of parseTemplate(value).segments) if (segment.kind === 'ref') into.push(segment.ref);
  } else if (Array.isArray(value)) {
    for (const item of value) collectReferences(item, into);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) collectReferences(item, into);
  }
  return into;
}
