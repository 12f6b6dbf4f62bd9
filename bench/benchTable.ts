/** One row of the table `npm run bench` prints: the figure, what was measured, and its goal. */
export interface BenchRow {
  figure: string;
  result: string;
  goal: string;
  /** Undefined for figures that are reported, not judged. */
  met?: boolean;
}

export function printTable(rows: BenchRow[]): void {
  const header = ['figure', 'result', 'goal', 'met'];
  const cells = rows.map((r) => [r.figure, r.result, r.goal, r.met === undefined ? '—' : r.met ? 'yes' : 'NO']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
