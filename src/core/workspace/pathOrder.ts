/**
 * The one order every file tool lists paths in. Code-unit order (not locale order, which varies
 * by machine) with '/' sorting before every other character, i.e. segment by segment: a folder's
 * contents follow it directly ("a/b" before "a.txt"), so a sorted list reads as a tree.
 */
export function comparePaths(a: { relative: string }, b: { relative: string }): number {
  const x = a.relative;
  const y = b.relative;
  const length = Math.min(x.length, y.length);
  for (let i = 0; i < length; i++) {
    const cx = x.charCodeAt(i);
    const cy = y.charCodeAt(i);
    if (cx === cy) continue;
    if (cx === 47) return -1;
    if (cy === 47) return 1;
    return cx - cy;
  }
  return x.length - y.length;
}
