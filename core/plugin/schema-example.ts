/**
 * Builds a filled-in example value from a JSON Schema: the first enum value, the default, or a
 * placeholder of the right type; required properties always, optional ones too. Used to show
 * the model a valid answer and by adapters that answer offline.
 */
type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  minimum?: number;
  format?: string;
};

export function exampleFromSchema(schema: unknown, name = 'value'): unknown {
  const s = (schema ?? {}) as JsonSchema;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.examples?.length) return s.examples[0];
  if (s.default !== undefined && !(Array.isArray(s.default) && s.default.length === 0)) return s.default;
  const variant = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (variant) return exampleFromSchema(variant, name);
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(s.properties ?? {})) out[key] = exampleFromSchema(sub, key);
      return out;
    }
    case 'array':
      return s.items ? [exampleFromSchema(s.items, name)] : [];
    case 'integer':
    case 'number':
      return s.minimum !== undefined && s.minimum > 1 ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return s.format === 'uri' ? 'file:///path/to/file' : `<${name}>`;
    default:
      return `<${name}>`;
  }
}
