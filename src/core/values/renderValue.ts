import * as yaml from 'js-yaml';
import { renderFileBundle, renderFileSummaries, renderFileTree, renderSearchResults } from './renderFileValues';
import { isFileBundle, isFileSummaries, isFileTree, isSearchResults, isSelfRendered } from './toolValues';

/**
 * How a value reads when interpolated into prompt text. Tool outputs with a known shape get
 * their purpose-made rendering (file headers, indented trees); lists of scalars become one item
 * per line; anything else is YAML, which models and people both read well.
 */
export function renderValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (isFileBundle(value)) return renderFileBundle(value);
  if (isFileSummaries(value)) return renderFileSummaries(value);
  if (isFileTree(value)) return renderFileTree(value);
  if (isSearchResults(value)) return renderSearchResults(value);
  if (isSelfRendered(value)) return value.text;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return value.map((item) => `- ${renderValue(item)}`).join('\n');
    if (value.every((item) => isFileBundle(item) || typeof item === 'string')) return value.map(renderValue).join('\n\n');
  }
  return yaml.dump(value, { lineWidth: 120, noRefs: true, skipInvalid: true }).trimEnd();
}

/** A one-line-ish preview for step events and the run log; never the whole payload. */
export function previewValue(value: unknown, maxChars = 400): string {
  const text = renderValue(value);
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}… (${text.length.toLocaleString('en-US')} chars)`;
}
