import type { OpenAiFunctionTool } from '../agentToolSet';
import { isFlatParameter, typeLabel, type JsonSchema } from './jsonSchemaTypes';
import { DEFINITION_START, REQUEST_END, REQUEST_START, RESULT_END, RESULT_START, VALUE_CLOSE, VALUE_OPEN } from './toolProtocol';

/**
 * The `{tools}` block of the text protocol, generated from the same definitions (registry, toggles,
 * JSON Schemas) that native calls send in `tools`, so both protocols always offer the same tools.
 * Seed 004's format: name, description, parameters with type, required flag and default, and one
 * example request per tool. Parameters that are not flat get an explicit note on how to write them.
 */
export function renderToolDefinitions(definitions: readonly OpenAiFunctionTool[]): string {
  return definitions.map((definition) => renderDefinition(definition.function)).join('\n\n');
}

function renderDefinition(tool: OpenAiFunctionTool['function']): string {
  const schema = tool.parameters as JsonSchema;
  const required = new Set(schema.required ?? []);
  const properties = Object.entries(schema.properties ?? {});
  const lines = properties.map(([name, property]) => parameterLine(name, property, required.has(name)));
  const nested = properties.filter(([, property]) => !isFlatParameter(property)).map(([name]) => name);
  if (nested.length) {
    lines.push(
      `  Note: ${nested.join(', ')} ${nested.length === 1 ? 'is' : 'are'} not a plain value: write ${nested.length === 1 ? 'it' : 'each'} as one JSON value (an array [...] or object {...}) between ${VALUE_OPEN} and ${VALUE_CLOSE}, on one line.`,
    );
  }
  return [
    DEFINITION_START,
    `tool_name: ${VALUE_OPEN}${tool.name}${VALUE_CLOSE}`,
    `description: ${VALUE_OPEN}${tool.description}${VALUE_CLOSE}`,
    `parameters: ${VALUE_OPEN}\n${lines.length ? lines.join('\n') : '  (none)'}\n${VALUE_CLOSE}`,
    `example: ${VALUE_OPEN}\n${exampleRequest(tool.name, schema)}\n${VALUE_CLOSE}`,
  ].join('\n');
}

function parameterLine(name: string, property: JsonSchema, required: boolean): string {
  const flags = [typeLabel(property), ...(required ? ['required'] : [])].join(', ');
  const description = (property.description ?? '').trim().replace(/\s*\n\s*/g, ' ');
  const extras: string[] = [];
  if (property.default !== undefined) extras.push(`Default: ${JSON.stringify(property.default)}.`);
  if (property.enum?.length) extras.push(`One of: ${property.enum.map((v) => JSON.stringify(v)).join(', ')}.`);
  const text = [description && (/[.!?)]$/.test(description) ? description : `${description}.`), ...extras].filter(Boolean).join(' ');
  return `  - ${name} (${flags})${text ? `: ${text}` : ''}`;
}

/** A request with the required parameters filled with plausible values (all of them when none is required, up to two). */
export function exampleRequest(name: string, schema: JsonSchema): string {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const shown = required.size ? properties.filter(([key]) => required.has(key)) : properties.slice(0, 1);
  const lines = shown.map(([key, property]) => `${key}: ${VALUE_OPEN}${exampleValue(key, property)}${VALUE_CLOSE}`);
  return [REQUEST_START, `tool_name: ${VALUE_OPEN}${name}${VALUE_CLOSE}`, ...lines, REQUEST_END].join('\n');
}

function exampleValue(key: string, property: JsonSchema): string {
  if (property.examples?.length) return stringify(property.examples[0]);
  if (property.default !== undefined) return stringify(property.default);
  if (property.enum?.length) return stringify(property.enum[0]);
  const types = typeLabel(property);
  if (types.startsWith('string') || types.includes('| string')) return stringExample(key);
  if (types.startsWith('integer') || types.startsWith('number')) return String(property.minimum ?? 1);
  if (types.startsWith('boolean')) return 'true';
  if (types.startsWith('array')) return property.items && typeLabel(property.items) === 'string' ? `["${stringExample(key)}"]` : '[]';
  if (types.startsWith('object')) return '{}';
  return stringExample(key);
}

function stringExample(key: string): string {
  const name = key.toLowerCase();
  if (/path|file/.test(name)) return 'README.md';
  if (/command/.test(name)) return 'git status';
  if (/query|pattern|text/.test(name)) return 'TODO';
  if (/glob/.test(name)) return '**/*.ts';
  if (/question|task/.test(name)) return 'Where is the configuration loaded?';
  return `the ${key.replace(/_/g, ' ')}`;
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What the system prompt says about the text protocol, followed by the definitions. */
export function textProtocolInstructions(definitions: readonly OpenAiFunctionTool[]): string {
  return [
    'How to call tools: this conversation has no built-in tool calling. To call a tool, write a request block in your answer, exactly like this, one block per call:',
    `${REQUEST_START}\ntool_name: ${VALUE_OPEN}the tool's name${VALUE_CLOSE}\nparameter_name: ${VALUE_OPEN}value${VALUE_CLOSE}\n${REQUEST_END}`,
    `Put every value between ${VALUE_OPEN} and ${VALUE_CLOSE}; a value may span several lines. Leave out optional parameters you do not need. ` +
      `After your request blocks, stop writing: the results come back in the next message as ${RESULT_START} … ${RESULT_END} blocks. Never write a result block yourself. ` +
      'Once you have what you need, answer the question in plain text, without any request block.',
    `Available tools:\n\n${renderToolDefinitions(definitions)}`,
  ].join('\n\n');
}
