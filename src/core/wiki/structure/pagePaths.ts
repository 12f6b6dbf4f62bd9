/** The wiki's front page, inside the wiki folder. */
export const INDEX_PAGE = 'index.md';

/**
 * `modules/<slug>.md` for a module id: its folder path with separators and anything unusual as `-`,
 * unique among the pages already named (`-2`, `-3` …), so two folders never share a page.
 */
export function modulePagePath(id: string, used: Set<string>): string {
  const slug = id === '.' ? 'top-level' : id.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'module';
  let page = `modules/${slug}.md`;
  for (let suffix = 2; used.has(page.toLowerCase()); suffix++) page = `modules/${slug}-${suffix}.md`;
  used.add(page.toLowerCase());
  return page;
}
