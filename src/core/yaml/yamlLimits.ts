/**
 * Limits for untrusted YAML (security.md #9). js-yaml shares aliased nodes by reference, so a
 * "billion laughs" file parses quickly and only explodes when something walks it; we measure
 * the expanded size with memoisation before anything else touches the value.
 */
export interface YamlLimits {
  maxBytes: number;
  maxNodes: number;
  maxExpandedNodes: number;
  maxDepth: number;
}

export const DEFAULT_YAML_LIMITS: YamlLimits = {
  maxBytes: 256 * 1024,
  maxNodes: 20_000,
  maxExpandedNodes: 100_000,
  maxDepth: 40,
};

/** Keys that could reach an object's prototype if any code ever merged the parsed value. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
