import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface LinkReport {
  links: number;
  broken: string[];
}

/**
 * Every relative link of every page in a wiki folder, followed: the file must exist and a `#L<n>` line must
 * be inside it. What "zero broken links" in the goal counts.
 */
export function checkWikiLinks(wikiDir: string): LinkReport {
  const pages = listPages(wikiDir);
  let links = 0;
  const broken: string[] = [];
  const lineCounts = new Map<string, number>();
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    for (const [, href] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(href!) || href!.startsWith('#')) continue;
      links++;
      const [path, anchor] = href!.split('#') as [string, string | undefined];
      const target = resolve(dirname(page), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${page}: ${href}`);
        continue;
      }
      const line = anchor && /^L(\d+)$/.exec(anchor)?.[1];
      if (!line || statSync(target).isDirectory()) continue;
      let count = lineCounts.get(target);
      if (count === undefined) lineCounts.set(target, (count = readFileSync(target, 'utf8').split('\n').length));
      if (Number(line) < 1 || Number(line) > count) broken.push(`${page}: ${href} (the file has ${count} lines)`);
    }
  }
  return { links, broken };
}

function listPages(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(dir, name));
}
