import { ERROR_HANDLING_FIELDS, FALLBACK_FIELDS, fieldNames, STRATEGIES } from './dialectFields';
import type { FieldPath } from './dialectPositions';
import { fallbackTarget } from './dialectReferences';
import { asRecord, type DialectReport, rejectUnknownKeys } from './dialectReport';

/**
 * Seed 002's `error_handling`, for the whole chain or for one step:
 *   strategy: abort     → on_error: abort (CodeWiki's default)
 *   strategy: retry     → retry: { attempts (default 3), backoff }
 *   strategy: fallback  → on_error: fallback, with the fallback entries as fallback steps
 * At chain level a fallback entry with `condition: "${steps.search.error}"` handles that step;
 * one without a condition handles every step. No other condition has an equivalent.
 */
export interface ErrorHandling {
  strategy: 'abort' | 'retry' | 'fallback';
  /** Where it is written, for mapping CodeWiki's on_error/retry/fallback fields back to it. */
  path: FieldPath;
  attempts?: unknown;
  backoff?: unknown;
  fallbacks: FallbackEntry[];
}

export interface FallbackEntry {
  record: Record<string, unknown>;
  path: FieldPath;
  /** The seed step id its condition names; undefined for "any step". */
  target?: string;
}

const KEYS = fieldNames(ERROR_HANDLING_FIELDS);
const FALLBACK_KEYS = fieldNames(FALLBACK_FIELDS);
const DEFAULT_RETRY_ATTEMPTS = 3;

export function readErrorHandling(raw: unknown, path: FieldPath, report: DialectReport): ErrorHandling | undefined {
  if (raw === undefined || raw === null) return undefined;
  const record = asRecord(raw);
  if (!record) {
    report.error(path, 'error_handling must be a mapping with a strategy: retry, fallback or abort');
    return undefined;
  }
  rejectUnknownKeys(record, KEYS, path, 'in error_handling', report);
  const strategy = STRATEGIES.find((s) => s === record.strategy);
  if (!strategy) {
    const written = record.strategy === undefined ? 'no strategy' : `strategy "${String(record.strategy)}"`;
    report.error(record.strategy === undefined ? path : [...path, 'strategy'], `${written}: error_handling needs one of retry, fallback, abort`);
    return undefined;
  }
  if (strategy !== 'retry') {
    for (const key of ['attempts', 'backoff'] as const)
      if (record[key] !== undefined) report.error([...path, key], `${key} applies only to strategy: retry`, { atKey: true });
  }
  if (strategy !== 'fallback' && record.fallback !== undefined)
    report.error([...path, 'fallback'], 'fallback steps run only with strategy: fallback', { atKey: true });
  const fallbacks = strategy === 'fallback' ? readFallbacks(record.fallback, [...path, 'fallback'], report) : [];
  if (strategy === 'fallback' && record.fallback === undefined)
    report.error([...path, 'strategy'], 'strategy: fallback needs a fallback list, e.g. fallback: [{ tool: …, params: … }]');
  return { strategy, path, attempts: record.attempts, backoff: record.backoff, fallbacks };
}

function readFallbacks(raw: unknown, path: FieldPath, report: DialectReport): FallbackEntry[] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw.map((entry, i) => ({ entry, path: [...path, i] })) : [{ entry: raw, path }];
  return list.flatMap(({ entry, path: at }) => {
    const record = asRecord(entry);
    if (!record) {
      report.error(at, 'a fallback is a mapping with tool and params');
      return [];
    }
    rejectUnknownKeys(record, FALLBACK_KEYS, at, 'in a fallback', report);
    if (typeof record.condition !== 'string' && record.condition !== undefined)
      report.error([...at, 'condition'], 'a fallback condition is a string, e.g. "${steps.search.error}"');
    let target: string | undefined;
    if (typeof record.condition === 'string') {
      target = fallbackTarget(record.condition);
      if (!target)
        report.error(
          [...at, 'condition'],
          `a fallback's condition must be "\${steps.<id>.error}", naming the step whose failure it handles; "${record.condition}" has no CodeWiki equivalent`,
        );
    }
    return [{ record, path: at, target }];
  });
}

/** The CodeWiki fields one step gets from the handling that applies to it (its own, else the chain's). */
export function stepPolicy(handling: ErrorHandling, fallbacks: FallbackEntry[]): Record<string, unknown> {
  if (handling.strategy === 'retry') {
    const retry: Record<string, unknown> = { attempts: handling.attempts ?? DEFAULT_RETRY_ATTEMPTS };
    if (handling.backoff !== undefined) retry.backoff = handling.backoff;
    return { retry };
  }
  if (handling.strategy === 'abort' || fallbacks.length === 0) return { on_error: 'abort' };
  return { on_error: 'fallback' };
}
