import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPath, importsInText, importsOf, resolveImport, sourceFilesUnder } from './importGraph.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORE = join(ROOT, 'src', 'core');

/**
 * No import cycles, of two sizes. Between files anywhere: an import whose target leads back to the importing file.
 * Between the units of src/core's floor plan (its top-level folders, and each file directly in it): an import from
 * one unit to another that already leads back, so the tiers' folders stay a one-way street inside a tier too.
 *
 * Type-only imports count (style.md: one types module per subsystem, no type cycles); that is why this is our own
 * rule: import-x/no-cycle skips them by design.
 */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles between files, and between the top-level folders of src/core.' },
    schema: [],
    messages: {
      fileCycle: 'Import cycle: {{cycle}}. Break it: move what both sides need into a lower module (a types module, for types), or invert the dependency.',
      folderCycle: 'Folder cycle in src/core: {{cycle}} ({{witness}}). Within a tier, folders import each other one way only (docs/architecture.md).',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!file || file === '<text>') return {};
    // The file being linted is read from the editor's text, which may differ from the disk.
    const ownImports = importsInText(file, context.sourceCode.text);
    const importsOfFile = (path) => (path === file ? ownImports : importsOf(path));
    const show = (path) => relative(context.cwd, path).split(sep).join('/');
    let inACycle;
    let folderEdges; // built on the first import that crosses src/core's folders, then kept for this file

    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      const target = resolveImport(file, specifier);
      if (!target || target === file) return;
      // One search from the file settles most files: when nothing it imports leads back, no import can close a cycle.
      inACycle ??= findPath(file, file, importsOfFile, { leaveStart: true }) !== undefined;
      const back = inACycle ? findPath(target, file, importsOfFile) : undefined;
      if (back) {
        context.report({ node, messageId: 'fileCycle', data: { cycle: [file, ...back].map(show).join(' → ') } });
        return;
      }
      const from = coreUnitOf(file);
      const to = coreUnitOf(target);
      if (!from || !to || from === to) return;
      folderEdges ??= unitEdges(file, importsOfFile);
      const folderBack = findUnitPath(to, from, folderEdges);
      if (folderBack) {
        const witness = folderBack.witnesses.map(([a, b]) => `${show(a)} imports ${show(b)}`).join('; ');
        context.report({ node, messageId: 'folderCycle', data: { cycle: [from, ...folderBack.units].join(' → '), witness } });
      }
    }

    const sourceOf = (node) => (node.source?.type === 'Literal' ? node.source.value : undefined);
    return {
      ImportDeclaration: (node) => check(node, sourceOf(node)),
      ExportNamedDeclaration: (node) => check(node, sourceOf(node)),
      ExportAllDeclaration: (node) => check(node, sourceOf(node)),
      ImportExpression: (node) => check(node, sourceOf(node)),
      TSImportEqualsDeclaration: (node) => check(node, node.moduleReference?.expression?.value),
      TSImportType: (node) => check(node, node.argument?.literal?.value ?? node.argument?.value),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value);
      },
    };
  },
};

/** `agent` for src/core/agent/…, `codewikiEngine.ts` for a file directly in src/core; undefined outside src/core. */
function coreUnitOf(path) {
  const inCore = relative(CORE, path);
  if (inCore.startsWith('..') || inCore === path) return undefined;
  return inCore.split(sep)[0];
}

/** Each src/core unit's imports of other units, with the first file import that makes each one (its witness). */
function unitEdges(linted, importsOfFile) {
  const sources = sourceFilesUnder(CORE);
  const edges = new Map();
  for (const source of sources.includes(linted) ? sources : [...sources, linted]) {
    const from = coreUnitOf(source);
    if (!from) continue;
    for (const target of importsOfFile(source)) {
      const to = coreUnitOf(target);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, [source, target]);
    }
  }
  return edges;
}

/** A shortest path of units from `start` to `goal`, with the witness of each step, or undefined. */
function findUnitPath(start, goal, edges) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length) {
    const unit = queue.shift();
    if (unit === goal) {
      const units = [];
      for (let at = goal; at !== undefined; at = previous.get(at)) units.unshift(at);
      const witnesses = units.slice(1).map((to, i) => edges.get(units[i]).get(to));
      return { units, witnesses };
    }
    for (const next of edges.get(unit)?.keys() ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, unit);
      queue.push(next);
    }
  }
  return undefined;
}
