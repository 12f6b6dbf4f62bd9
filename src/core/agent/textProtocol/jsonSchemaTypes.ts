/** The parts of a tool's JSON Schema (as the registry builds it from zod) that the text protocol reads. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  examples?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  [keyword: string]: unknown;
}

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** Every type a parameter accepts, through `type` arrays and `anyOf`/`oneOf`. */
export function parameterTypes(schema: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (!schema) return types;
  if (typeof schema.type === 'string') types.add(schema.type);
  if (Array.isArray(schema.type)) for (const type of schema.type) types.add(type);
  for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const type of parameterTypes(option)) types.add(type);
  if (!types.size && schema.enum?.length) types.add(typeof schema.enum[0] === 'number' ? 'number' : 'string');
  return types;
}

/** A parameter is flat when it takes a plain value (string, number, boolean); arrays and objects need JSON in a text request. */
export function isFlatParameter(schema: JsonSchema | undefined): boolean {
  const types = parameterTypes(schema);
  if (!types.size) return true;
  for (const type of types) if (PRIMITIVES.has(type)) return true;
  return false;
}

/** The parameters of a tool that are not flat (seed 004 asks for flat "facade" parameters). */
export function nonFlatParameters(schema: JsonSchema): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, property]) => !isFlatParameter(property))
    .map(([name]) => name);
}

/** One short word for a parameter's type, e.g. `integer`, `string | array`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  const types = [...parameterTypes(schema)];
  if (!types.length) return 'any';
  return types.map((type) => (type === 'array' && schema?.items ? `array of ${typeLabel(schema.items)}` : type)).join(' | ');
}
