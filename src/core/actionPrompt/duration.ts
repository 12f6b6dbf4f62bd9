/** Milliseconds from a YAML duration: a number of seconds, or "500ms" / "30s" / "2m". */
export function durationToMs(value: number | string): number {
  if (typeof value === 'number') return value * 1000;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m)$/.exec(value.trim());
  if (!match) throw new Error(`"${value}" is not a duration`);
  const amount = Number(match[1]);
  return match[2] === 'ms' ? amount : match[2] === 's' ? amount * 1000 : amount * 60_000;
}
