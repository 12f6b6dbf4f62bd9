import { codeSpan, inertMarkdown } from './inertMarkdown';
import type { ToolRegistry } from '../tools/toolRegistry';
import { isRecord, valueAt, type AuthoringDocument } from './authoringDocument';
import type { AuthoringEnvironment } from './authoringEnvironment';

export interface ToolParameterDoc {
  name: string;
  /** JSON Schema type in words: `string`, `number`, `string[]`, `"a" | "b"`… */
  type: string;
  required: boolean;
  description?: string;
}

export interface ToolDoc {
  name: string;
  description: string;
  /** `prompt`: another action prompt, called as a nested chain; `llm_tool`: declared in this file's llm_tools. */
  kind: 'tool' | 'prompt' | 'llm_tool';
  parameters: ToolParameterDoc[];
}

/** Every tool in a registry, prompts included, described for completion and hover. */
function registryToolDocs(registry: ToolRegistry): ToolDoc[] {
  return registry
    .list()
    .map((entry) =>
      toolDocFromSchema(
        entry.metadata.name,
        entry.metadata.description,
        entry.metadata.category === 'prompt' ? 'prompt' : 'tool',
        registry.jsonSchema(entry.metadata.name),
      ),
    );
}

/** The tools an agent definition's allow-list may name: agent-callable ones (sub-agents are not in the environment's agentTools). */
export function agentToolDocs(registry: ToolRegistry): ToolDoc[] {
  const callable = new Set(
    registry
      .list()
      .filter((entry) => entry.metadata.agentCallable)
      .map((entry) => entry.metadata.name),
  );
  return registryToolDocs(registry).filter((tool) => callable.has(tool.name));
}

/** Tools a step may call: the registry's (built-in tools and action prompts) and the file's own llm_tools. */
export function promptToolDocs(doc: AuthoringDocument, env: AuthoringEnvironment | undefined): ToolDoc[] {
  const own = llmToolDocs(valueAt(doc.value, ['llm_tools']));
  const fromRegistry = env ? registryToolDocs(env.promptTools) : [];
  const selfId = doc.file
    .replace(/\\/g, '/')
    .replace(/^.*\//, '')
    .replace(/\.ya?ml$/i, '');
  return [...own, ...fromRegistry.filter((t) => t.name !== selfId && !own.some((o) => o.name === t.name))];
}

/** The `llm_tools` a prompt declares for itself, read from the raw document (it may not validate yet). */
function llmToolDocs(rawLlmTools: unknown): ToolDoc[] {
  if (!Array.isArray(rawLlmTools)) return [];
  return rawLlmTools.filter(isRecord).flatMap((tool) => {
    if (typeof tool.name !== 'string') return [];
    const parameters = (Array.isArray(tool.parameters) ? tool.parameters : []).filter(isRecord).flatMap<ToolParameterDoc>((p) =>
      typeof p.name === 'string'
        ? [
            {
              name: p.name,
              type: typeof p.type === 'string' ? p.type : 'string',
              required: p.required !== false,
              description: typeof p.description === 'string' ? p.description : undefined,
            },
          ]
        : [],
    );
    return [{ name: tool.name, description: typeof tool.description === 'string' ? tool.description : '', kind: 'llm_tool' as const, parameters }];
  });
}

function toolDocFromSchema(name: string, description: string, kind: ToolDoc['kind'], schema: Record<string, unknown>): ToolDoc {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parameters = Object.entries(properties).map<ToolParameterDoc>(([param, spec]) => ({
    name: param,
    type: typeInWords(spec),
    required: required.has(param),
    description: isRecord(spec) && typeof spec.description === 'string' ? spec.description : undefined,
  }));
  return { name, description, kind, parameters };
}

function typeInWords(spec: unknown): string {
  if (!isRecord(spec)) return 'any';
  if (Array.isArray(spec.enum)) return spec.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in spec) return JSON.stringify(spec.const);
  if (Array.isArray(spec.anyOf)) return spec.anyOf.map(typeInWords).join(' | ');
  if (spec.type === 'array') return `${typeInWords(spec.items)}[]`;
  if (Array.isArray(spec.type)) return spec.type.join(' | ');
  return typeof spec.type === 'string' ? spec.type : 'any';
}

/** Markdown for a hover or a completion item's documentation. */
export function toolMarkdown(doc: ToolDoc): string {
  const what = doc.kind === 'prompt' ? 'action prompt (runs as a nested chain)' : doc.kind === 'llm_tool' ? 'LLM tool declared in this file' : 'tool';
  const lines = [`**${inertMarkdown(doc.name)}** — ${what}`, '', inertMarkdown(doc.description)];
  if (doc.parameters.length) {
    lines.push('', '| parameter | type | |', '|---|---|---|');
    for (const p of doc.parameters)
      lines.push(
        `| ${codeSpan(p.name).replace(/\|/g, '\\|')}${p.required ? '' : '?'} | ${codeSpan(p.type).replace(/\|/g, '\\|')} | ${inertMarkdown(p.description ?? '')
          .replace(/\n/g, ' ')
          .replace(/\|/g, '\\|')} |`,
      );
  } else lines.push('', '_No parameters._');
  return lines.join('\n');
}

export function parameterMarkdown(tool: ToolDoc, parameter: ToolParameterDoc): string {
  return [
    `**${inertMarkdown(parameter.name)}**${parameter.required ? ' (required)' : ' (optional)'}: ${codeSpan(parameter.type)} — parameter of ${codeSpan(tool.name)}`,
    '',
    inertMarkdown(parameter.description ?? ''),
  ]
    .join('\n')
    .trim();
}
