import { collectReferences } from '../template/templateParser';
import { renderValue } from '../values/renderValue';
import { resolveTemplateString, type Variables } from '../template/renderTemplate';
import { isFileBundle, type FileBundle } from '../values/toolValues';
import type { PromptMessage } from '../llm/promptMessages';
import { estimateTokens, prefixWithinTokens } from '../llm/tokenEstimate';

export interface FinalTemplates {
  system?: string;
  human: string;
}

export interface FittedPrompt {
  messages: PromptMessage[];
  tokens: number;
  warnings: string[];
}

/**
 * Renders the final prompt inside the input budget. When it is over, file contents are cut
 * first, each file to a fair share (small files stay whole, the largest give up the most),
 * then long text values, and only as a last resort the rendered message itself. Every cut
 * leaves a visible marker in the text and a warning, so the model and the user both know.
 */
export function fitFinalPrompt(templates: FinalTemplates, variables: Variables, maxInputTokens: number): FittedPrompt {
  const warnings: string[] = [];
  let rendered = render(templates, variables);
  if (rendered.tokens <= maxInputTokens) return { ...rendered, warnings };

  const names = referencedNames(templates);
  const shrunk = new Map(variables);
  const bundles = names.flatMap((name) => bundlesIn(shrunk.get(name)).map((bundle) => ({ name, bundle })));
  if (bundles.length) {
    const overflow = rendered.tokens - maxInputTokens;
    const cuts = shrinkFiles(
      bundles.flatMap(({ bundle }) => bundle.files),
      overflow,
      warnings,
      maxInputTokens,
    );
    for (const name of new Set(bundles.map((b) => b.name))) shrunk.set(name, replaceBundles(shrunk.get(name), cuts));
    rendered = render(templates, shrunk);
  }
  for (const name of names.filter((n) => typeof shrunk.get(n) === 'string').sort((a, b) => String(shrunk.get(b)).length - String(shrunk.get(a)).length)) {
    if (rendered.tokens <= maxInputTokens) break;
    const text = shrunk.get(name) as string;
    const keep = Math.max(0, estimateTokens(text) - (rendered.tokens - maxInputTokens) - 40);
    shrunk.set(name, cutWithMarker(text, keep));
    warnings.push(`Cut {${name}} from ${fmt(estimateTokens(text))} to about ${fmt(keep)} tokens to fit the ${fmt(maxInputTokens)}-token input budget`);
    rendered = render(templates, shrunk);
  }
  if (rendered.tokens > maxInputTokens) {
    const human = rendered.messages[rendered.messages.length - 1];
    const others = rendered.tokens - estimateTokens(human.content);
    human.content = cutWithMarker(human.content, Math.max(0, maxInputTokens - others - 40));
    warnings.push(`Cut the end of the prompt to fit the ${fmt(maxInputTokens)}-token input budget`);
    rendered = { messages: rendered.messages, tokens: rendered.messages.reduce((n, m) => n + estimateTokens(m.content), 0) };
  }
  return { ...rendered, warnings };
}

function render(templates: FinalTemplates, variables: Variables): { messages: PromptMessage[]; tokens: number } {
  const messages: PromptMessage[] = [];
  if (templates.system) messages.push({ role: 'system', content: asText(resolveTemplateString(templates.system, variables)) });
  messages.push({ role: 'human', content: asText(resolveTemplateString(templates.human, variables)) });
  return { messages, tokens: messages.reduce((n, m) => n + estimateTokens(m.content), 0) };
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : renderValue(value);
}

function referencedNames(templates: FinalTemplates): string[] {
  const refs = [...collectReferences(templates.system ?? ''), ...collectReferences(templates.human)];
  return [...new Set(refs.map((r) => r.variable))];
}

function bundlesIn(value: unknown): FileBundle[] {
  if (isFileBundle(value)) return [value];
  if (Array.isArray(value)) return value.filter(isFileBundle);
  return [];
}

/** Water-filling: find the largest per-file cap that removes at least `overflow` tokens. */
function shrinkFiles(files: FileBundle['files'], overflow: number, warnings: string[], budget: number): Map<object, string> {
  const sizes = files.map((f) => estimateTokens(f.content));
  const total = sizes.reduce((a, b) => a + b, 0);
  const target = Math.max(0, total - overflow - files.length * 30); // room for the markers
  let low = 0;
  let high = Math.max(0, ...sizes);
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (sizes.reduce((sum, s) => sum + Math.min(s, mid), 0) <= target) low = mid;
    else high = mid - 1;
  }
  const cuts = new Map<object, string>();
  files.forEach((file, i) => {
    if (sizes[i] <= low) return;
    cuts.set(file, cutWithMarker(file.content, low));
    warnings.push(`Cut ${file.path} from ${fmt(sizes[i])} to about ${fmt(low)} tokens to fit the ${fmt(budget)}-token input budget`);
  });
  return cuts;
}

function replaceBundles(value: unknown, cuts: Map<object, string>): unknown {
  const replace = (bundle: FileBundle): FileBundle => ({
    ...bundle,
    files: bundle.files.map((f) => (cuts.has(f) ? { ...f, content: cuts.get(f)!, truncated: true } : f)),
  });
  if (isFileBundle(value)) return replace(value);
  if (Array.isArray(value)) return value.map((item) => (isFileBundle(item) ? replace(item) : item));
  return value;
}

function cutWithMarker(text: string, keepTokens: number): string {
  const kept = prefixWithinTokens(text, keepTokens);
  const totalLines = text.split('\n').length;
  const keptLines = kept ? kept.split('\n').length : 0;
  return `${kept}\n… [CodeWiki: cut ${fmt(totalLines - keptLines)} of ${fmt(totalLines)} lines here to fit the context budget]`;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
