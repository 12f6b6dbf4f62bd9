/** Types for `build.mjs`, so TypeScript callers (tests, benchmarks) get a checked signature. */
export function buildWebview(options?: { outdir?: string; production?: boolean }): Promise<{ outdir: string; script: string }>;
