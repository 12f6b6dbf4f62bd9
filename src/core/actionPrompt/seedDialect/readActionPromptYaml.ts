import type { Diagnostic } from '../../yaml/diagnostics';
import { parseYamlSafely } from '../../yaml/parseYamlSafely';
import type { PositionIndex } from '../../yaml/yamlPositions';
import { type DialectOptions, NO_ENVIRONMENT } from './dialectOptions';
import { isSeedDialect, translateSeedDialect } from './translateSeedDialect';

export interface ActionPromptYaml {
  /** The prompt in CodeWiki's shape: as written, or translated from seed 002's dialect. */
  value: unknown;
  /** Positions in the file as written, whichever shape it was written in. */
  positions: PositionIndex;
  /** The translator's problems (empty for CodeWiki's own format). */
  diagnostics: Diagnostic[];
  dialect: 'codewiki' | 'seed-002';
}

/**
 * Reads an action-prompt file safely and, when it is written in seed 002's dialect, translates
 * it, so everything after this sees one format.
 */
export function readActionPromptYaml(text: string, file: string, options: DialectOptions = NO_ENVIRONMENT): ActionPromptYaml {
  const { value, positions } = parseYamlSafely(text, file);
  if (!isSeedDialect(value)) return { value, positions, diagnostics: [], dialect: 'codewiki' };
  return { ...translateSeedDialect(value, positions, file, options), dialect: 'seed-002' };
}
