/** How a page links to code and to other pages; relative to the page, so links work on GitHub, in editors and in the wiki view. */
export interface PageLinks {
  /** A workspace file (as tools show paths), at a line when given: `../../src/a.ts#L12`. */
  code(path: string, line?: number): string;
  /** Another page of the wiki (`index.md`, `modules/x.md`). */
  page(page: string): string;
}
