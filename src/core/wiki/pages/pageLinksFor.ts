import { dirname, posix, relative, sep } from 'node:path';
import type { Workspace } from '../../workspace/workspace';
import type { PageLinks } from '../render/pageLinks';

/** Links from the page at `page` (inside the wiki folder `wikiDir`, absolute) to code and to other pages. */
export function pageLinksFor(workspace: Workspace, wikiDir: string, page: string): PageLinks {
  const pageDir = dirname(`${wikiDir}${sep}${page.split('/').join(sep)}`);
  return {
    code(path, line) {
      const target = relative(pageDir, workspace.locateLexically(path).absolute).split(sep).join('/');
      return `${encodePath(target)}${line ? `#L${line}` : ''}`;
    },
    page(other) {
      return encodePath(posix.relative(posix.dirname(page), other));
    },
  };
}

/** Each segment URL-encoded, so a space or a parenthesis in a path cannot end the Markdown link. */
function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}
