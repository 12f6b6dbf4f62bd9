import type { PageLinks } from '../render/pageLinks';
import type { KnownNames } from './knownNames';

/**
 * Code names in checked prose become links: a file to the file, a definition with one place in the code to
 * its line. Runs after the trust check, so every name it meets exists.
 */
export function linkNames(prose: string, known: KnownNames, links: PageLinks): string {
  let inFence = false;
  return prose
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence || /^\s*(```|~~~)/.test(line)) return line;
      return line.replace(/(?<!\[)(`+)([^`]+)\1/g, (span, _fence: string, code: string) => {
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
