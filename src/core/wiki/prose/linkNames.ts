import type { PageLinks } from '../render/pageLinks';
import type { KnownNames } from './knownNames';
import { CODE_SPAN, markdownLines } from './markdownLines';

/**
 * Code names in checked prose become links: a file to the file, a definition with one place in the code to
 * its line. Runs after the trust check, so every name it meets exists.
 */
export function linkNames(prose: string, known: KnownNames, links: PageLinks): string {
  return markdownLines(prose)
    .map(({ text: line, fenced }) => {
      if (fenced) return line;
      return line.replace(CODE_SPAN, (span, _fence: string, code: string) => {
        const name = code.trim();
        const withLine = /^(.+?)(?::(\d+)|#L(\d+))$/.exec(name);
        const file = known.file(withLine ? withLine[1]! : name);
        if (file && (name.includes('/') || name.includes('.')))
          return `[${span}](${links.code(file, withLine ? Number(withLine[2] ?? withLine[3]) : undefined)})`;
        const bare = name
          .replace(/\(\)$/, '')
          .split(/\.|::|#/)
          .at(-1)!;
        const definitions = known.definitionsOf(bare);
        if (definitions.length === 1) return `[${span}](${links.code(definitions[0]!.path, definitions[0]!.line)})`;
        return span;
      });
    })
    .join('\n');
}

/** A link linkNames made around a code span: the model's own brackets are escaped (safeProse), so an unescaped one is ours. */
const OUR_LINK = /(?<!\\)\[(`+[^`]*?`+)\]\([^)\s]*\)/g;

/**
 * Saved prose with its links made again from the index as it is now. A link names a line, and a definition in
 * another module moves without this module's prose going stale: the links follow it (and go when the name no
 * longer has one place), so a page never points at the wrong line.
 */
export function relinkNames(prose: string, known: KnownNames, links: PageLinks): string {
  return linkNames(prose.replace(OUR_LINK, '$1'), known, links);
}
