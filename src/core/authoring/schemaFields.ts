import { z } from 'zod';
import { actionPromptJsonSchema } from '../actionPrompt/actionPromptJsonSchema';
import { agentDefinitionSchema } from '../subagents/agentDefinitionSchema';
import { isRecord } from './authoringDocument';
import type { AuthoringKind } from './authoringKind';

/**
 * Field names, their descriptions and allowed values, read from the JSON Schema that the loader's
 * own zod schemas produce, so completion offers exactly what validation accepts.
 */
export interface SchemaField {
  name: string;
  description?: string;
  /** Allowed values when the field is an enum (input types, on_error…). */
  values?: Array<string | number | boolean>;
  required: boolean;
}

type JsonSchema = Record<string, unknown>;
const schemas = new Map<AuthoringKind, JsonSchema>();

function rootSchema(kind: AuthoringKind): JsonSchema {
  let schema = schemas.get(kind);
  if (!schema) {
    schema = kind === 'prompt' ? actionPromptJsonSchema() : (z.toJSONSchema(agentDefinitionSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
    schemas.set(kind, schema);
  }
  return schema;
}

/** The alternatives a schema node stands for: `$ref`s resolved, `anyOf`/`oneOf` flattened. */
function branches(node: unknown, root: JsonSchema, depth = 0): JsonSchema[] {
  if (!isRecord(node) || depth > 20) return [];
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace(/^#\/\$defs\//, '');
    const defs = isRecord(root.$defs) ? root.$defs : {};
    return branches(defs[name], root, depth + 1);
  }
  const union = (Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined) as unknown[] | undefined;
  if (union) return union.flatMap((branch) => branches(branch, root, depth + 1));
  return [node];
}

function nodesAt(kind: AuthoringKind, path: ReadonlyArray<string | number>): JsonSchema[] {
  const root = rootSchema(kind);
  let nodes = branches(root, root);
  for (const part of path) {
    nodes = nodes.flatMap((node) => {
      if (typeof part === 'number') return node.type === 'array' ? branches(node.items, root) : [];
      const properties = isRecord(node.properties) ? node.properties : undefined;
      return properties && part in properties ? branches(properties[part], root) : [];
    });
  }
  return nodes;
}

/** The fields a mapping at `path` may have. */
export function fieldsAt(kind: AuthoringKind, path: ReadonlyArray<string | number>): SchemaField[] {
  const fields = new Map<string, SchemaField>();
  const root = rootSchema(kind);
  for (const node of nodesAt(kind, path)) {
    if (!isRecord(node.properties)) continue;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const [name, spec] of Object.entries(node.properties)) {
      if (fields.has(name)) continue;
      const described = [spec, ...branches(spec, root)].find((s) => isRecord(s) && typeof s.description === 'string') as JsonSchema | undefined;
      fields.set(name, {
        name,
        description: described?.description as string | undefined,
        values: enumValues(branches(spec, root)),
        required: required.has(name),
      });
    }
  }
  return [...fields.values()];
}

/** The allowed values of the field at `path`, when it is an enum. */
export function valuesAt(kind: AuthoringKind, path: ReadonlyArray<string | number>): Array<string | number | boolean> | undefined {
  return enumValues(nodesAt(kind, path));
}

/** A field's description, for hover. */
export function fieldAt(kind: AuthoringKind, path: ReadonlyArray<string | number>): SchemaField | undefined {
  const name = path[path.length - 1];
  if (typeof name !== 'string') return undefined;
  return fieldsAt(kind, path.slice(0, -1)).find((f) => f.name === name);
}

function enumValues(nodes: JsonSchema[]): Array<string | number | boolean> | undefined {
  const values = nodes.flatMap((n) =>
    Array.isArray(n.enum) ? (n.enum as Array<string | number | boolean>) : 'const' in n ? [n.const as string] : n.type === 'boolean' ? [true, false] : [],
  );
  return values.length ? [...new Set(values)] : undefined;
}
