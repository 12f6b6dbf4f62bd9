import type { Diagnostic } from '../yaml/diagnostics';
import { parseFieldPath, readAuthoringDocument, valueAt, type AuthoringDocument } from './authoringDocument';
import type { AuthoringEnvironment } from './authoringEnvironment';
import type { AuthoringKind } from './authoringKind';
import { nearestNames } from '../util/nearestNames';
import { agentToolDocs, promptToolDocs } from './toolDocs';

export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** The fix to apply with one keystroke when there is an obvious one. */
  preferred: boolean;
}

/**
 * Fixes for one problem the loader reported: the nearest tool names for an unknown tool, and a
 * declaration for a variable a template reads but nothing declares.
 */
export function quickFixesFor(text: string, file: string, kind: AuthoringKind, diagnostic: Diagnostic, env: AuthoringEnvironment | undefined): QuickFix[] {
  const doc = readAuthoringDocument(text, file, kind);
  if (!doc.positions) return [];
  const unknownTool = /unknown tool "([^"]+)"/.exec(diagnostic.message);
  if (unknownTool) return replaceToolFixes(doc, diagnostic, unknownTool[1], env);
  const undeclared = /^\{([A-Za-z_][A-Za-z0-9_]*)\} is not (?:defined|an input of this agent)/.exec(diagnostic.message);
  if (undeclared) {
    const fix = declareFix(doc, undeclared[1]);
    return fix ? [fix] : [];
  }
  return [];
}

function replaceToolFixes(doc: AuthoringDocument, diagnostic: Diagnostic, name: string, env: AuthoringEnvironment | undefined): QuickFix[] {
  const path = parseFieldPath(diagnostic.field);
  const span = doc.positions?.spanOf(path);
  if (!span) return [];
  const known = doc.kind === 'agent' ? (env ? agentToolDocs(env.agentTools).map((t) => t.name) : []) : promptToolDocs(doc, env).map((t) => t.name);
  return nearestNames(name, known).map((candidate, i) => ({ title: `Change to "${candidate}"`, edits: [{ ...span, newText: candidate }], preferred: i === 0 }));
}

/** Appends `- name: X` to input_variables (prompts) or inputs (agents), creating the list when there is none. */
function declareFix(doc: AuthoringDocument, name: string): QuickFix | undefined {
  const listKey = doc.kind === 'agent' ? 'inputs' : 'input_variables';
  const fields = doc.kind === 'agent' ? ['type: string', `description: ${name}`] : ['type: text'];
  const title = `Declare "${name}" in ${listKey}`;
  const list = valueAt(doc.value, [listKey]);
  const text = doc.text;
  const positions = doc.positions!;
  if (Array.isArray(list) && list.length) {
    const first = positions.spanOf([listKey, 0])!;
    const last = positions.spanOf([listKey, list.length - 1])!;
    const firstLineStart = text.lastIndexOf('\n', first.start - 1) + 1;
    const prefix = text.slice(firstLineStart, first.start); // e.g. "  - "
    if (!/^\s*-\s+$/.test(prefix)) return undefined; // a flow list: leave it to the author
    const indent = ' '.repeat(prefix.length);
    let at = text.indexOf('\n', last.end);
    at = at < 0 ? text.length : at;
    const newText = `\n${prefix}name: ${name}${fields.map((f) => `\n${indent}${f}`).join('')}`;
    return { title, edits: [{ start: at, end: at, newText }], preferred: true };
  }
  const block = `${listKey}:\n  - name: ${name}\n${fields.map((f) => `    ${f}\n`).join('')}`;
  const existing = positions.spanOf([listKey], true);
  if (existing) {
    // `input_variables: []` or an empty key: replace that line.
    const lineStart = text.lastIndexOf('\n', existing.start - 1) + 1;
    let lineEnd = text.indexOf('\n', existing.start);
    lineEnd = lineEnd < 0 ? text.length : lineEnd + 1;
    return { title, edits: [{ start: lineStart, end: lineEnd, newText: block }], preferred: true };
  }
  const before = doc.kind === 'agent' ? /^system\s*:/m.exec(text) : (/^tool_chain\s*:/m.exec(text) ?? /^llm_prompt_template\s*:/m.exec(text));
  if (before) return { title, edits: [{ start: before.index, end: before.index, newText: block }], preferred: true };
  const end = text.length;
  return { title, edits: [{ start: end, end, newText: `${text.endsWith('\n') || !text ? '' : '\n'}${block}` }], preferred: true };
}
