import type { PositionIndex } from '../yaml/yamlPositions';
import { type Diagnostic, formatFieldPath } from '../yaml/diagnostics';
import { describeCharacter, INVISIBLE_CHARACTER, invisibleKind, tagText, type InvisibleKind } from './invisibleCharacters';

/** Beyond this, the rest are summed up in one diagnostic: a file full of them needs one fix, not a thousand lines. */
const MAX_REPORTED = 20;
const MAX_HIDDEN_TEXT_SHOWN = 80;

/** Adjacent invisible characters of one kind, reported together. */
interface Run {
  kind: InvisibleKind;
  start: number;
  end: number;
  codePoints: number[];
}

/**
 * Finds characters the user does not see in the editor but the model reads (see
 * invisibleCharacters.ts for which, and why some are errors and some warnings), each at the line
 * and column where it is written, with the field it is in. The text is scanned rather than the
 * parsed values because the text is what the user reviewed: each written character is reported
 * once however often aliases repeat it, and an escape such as "\u202E" is visible in the editor,
 * so it hides nothing.
 */
export function findInvisibleText(positions: PositionIndex, file: string): Diagnostic[] {
  const runs = collectRuns(positions.text);
  const diagnostics = runs.slice(0, MAX_REPORTED).map((run) => toDiagnostic(run, positions, file));
  const rest = runs.slice(MAX_REPORTED);
  if (rest.length) {
    diagnostics.push({
      ...toDiagnostic(rest[0], positions, file),
      severity: rest.some((run) => severityOf(run.kind) === 'error') ? 'error' : 'warning',
      message: `${rest.length} more places with invisible characters, from here on, are not listed one by one`,
    });
  }
  return diagnostics;
}

function collectRuns(text: string): Run[] {
  const runs: Run[] = [];
  for (const match of text.matchAll(new RegExp(INVISIBLE_CHARACTER.source, 'gu'))) {
    const codePoint = match[0].codePointAt(0)!;
    const start = match.index;
    if (codePoint === 0x200d && joinsEmoji(text, start)) continue;
    const kind = invisibleKind(codePoint);
    const last = runs[runs.length - 1];
    if (last && last.kind === kind && last.end === start) {
      last.end += match[0].length;
      last.codePoints.push(codePoint);
    } else {
      runs.push({ kind, start, end: start + match[0].length, codePoints: [codePoint] });
    }
  }
  return runs;
}

/** A zero-width joiner between two emoji (👩‍💻) is how the emoji is written, not hidden text. */
function joinsEmoji(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 4), at).replace(/(?:\uFE0F|[\u{1F3FB}-\u{1F3FF}])$/u, '');
  const after = String.fromCodePoint(text.codePointAt(at + 1) ?? 0);
  return /\p{Extended_Pictographic}$/u.test(before) && /\p{Extended_Pictographic}/u.test(after);
}

function toDiagnostic(run: Run, positions: PositionIndex, file: string): Diagnostic {
  const path = positions.pathAt(run.start);
  const where = path.length ? '' : ' (outside any field)';
  return {
    file,
    ...positions.positionAt(run.start),
    field: formatFieldPath(path),
    message: `${describeRun(run)}${where}: ${explain(run)}`,
    severity: severityOf(run.kind),
  };
}

function severityOf(kind: InvisibleKind): Diagnostic['severity'] {
  return kind === 'tag' || kind === 'bidi-control' ? 'error' : 'warning';
}

/** "U+202E RIGHT-TO-LEFT OVERRIDE", or for a run "3 invisible characters: U+200B ZERO WIDTH SPACE, …". */
function describeRun(run: Run): string {
  if (run.codePoints.length === 1) return describeCharacter(run.codePoints[0]);
  const distinct = [...new Set(run.codePoints)];
  const named = distinct.slice(0, 3).map(describeCharacter).join(', ');
  return `${run.codePoints.length} invisible characters: ${named}${distinct.length > 3 ? ', …' : ''}`;
}

function explain(run: Run): string {
  switch (run.kind) {
    case 'tag': {
      const hidden = run.codePoints.map((c) => tagText(c) ?? '').join('');
      const shown = hidden.length > MAX_HIDDEN_TEXT_SHOWN ? `${hidden.slice(0, MAX_HIDDEN_TEXT_SHOWN)}…` : hidden;
      return `tag characters carry text the editor does not show but the model reads${shown.trim() ? ` (it says ${JSON.stringify(shown)})` : ''}; remove them`;
    }
    case 'bidi-control':
      return 'a bidirectional control makes the editor show the text in a different order than the model reads it; remove it';
    case 'bidi-mark':
      return 'an invisible direction mark; keep it only where right-to-left text needs it';
    case 'zero-width':
      return 'an invisible character the model reads; remove it unless it is meant to be there';
  }
}
