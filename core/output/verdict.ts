/**
 * Which field of an answer holds its verdict, and what its words mean. An output schema names
 * it with the `x-verdict` keyword: a field name (`"x-verdict": "action"`), or an object with the
 * field and a map of its values to run statuses (`{ "field": "action", "values": { "COMPLETED":
 * "pass", "STUCK": "error", "RETRY": "gaps" } }`). A role may name the field itself with
 * `config.verdict_field` (its schema's map still applies when it names the same field). Neither
 * given: `status`, as seed 003's answers have it. Words not in the map go through the one
 * status table (core/run/status-map.ts).
 */
import { outputErrors } from './errors.ts';
import type { OutputSchema } from './schemas.ts';

export type VerdictStatus = 'pass' | 'gaps' | 'error';

export interface Verdict {
  /** The answer's field that holds the verdict. */
  field: string;
  /** Upper-cased value → status; empty when only the status table applies. */
  values: ReadonlyMap<string, VerdictStatus>;
}

export const DEFAULT_VERDICT_FIELD = 'status';
export const VERDICT_KEYWORD = 'x-verdict';

const STATUSES: readonly string[] = ['pass', 'gaps', 'error'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema's own declaration, checked: a bad one is a configuration error naming the schema. */
function fromSchema(schema: Pick<OutputSchema, 'schema' | 'file'>): Verdict | null {
  const declared = schema.schema[VERDICT_KEYWORD];
  if (declared === undefined) return null;
  const bad = (problem: string) => outputErrors.schemaInvalid(schema.file, `${VERDICT_KEYWORD} ${problem}`);
  if (typeof declared === 'string') {
    if (!declared) throw bad('must name a field');
    return { field: declared, values: new Map() };
  }
  if (!isObject(declared) || typeof declared.field !== 'string' || !declared.field) throw bad('must be a field name, or an object { "field": <name>, "values": { <word>: "pass" | "gaps" | "error" } }');
  const values = new Map<string, VerdictStatus>();
  if (declared.values !== undefined) {
    if (!isObject(declared.values)) throw bad('values must be an object mapping words to "pass", "gaps" or "error"');
    for (const [word, status] of Object.entries(declared.values)) {
      if (typeof status !== 'string' || !STATUSES.includes(status)) throw bad(`values.${word} must be "pass", "gaps" or "error", not ${JSON.stringify(status)}`);
      values.set(word.trim().toUpperCase(), status as VerdictStatus);
    }
  }
  return { field: declared.field, values };
}

/**
 * The verdict of a role's answers: the role's `config.verdict_field`, else the schema's
 * `x-verdict`, else `status`. A field a closed schema does not allow is a configuration error:
 * no answer could ever carry it.
 */
export function resolveVerdict(schema: Pick<OutputSchema, 'schema' | 'file'>, role: { name: string; config: Readonly<Record<string, unknown>> }): Verdict {
  const own = fromSchema(schema);
  const named = role.config.verdict_field;
  if (named !== undefined && (typeof named !== 'string' || !named)) {
    throw outputErrors.verdictFieldInvalid(role.name, `config.verdict_field must be a field name, not ${JSON.stringify(named)}`);
  }
  const verdict = typeof named === 'string' ? { field: named, values: own?.field === named ? own.values : new Map<string, VerdictStatus>() } : (own ?? { field: DEFAULT_VERDICT_FIELD, values: new Map() });
  const properties = isObject(schema.schema.properties) ? schema.schema.properties : undefined;
  if (schema.schema.additionalProperties === false && properties && !Object.hasOwn(properties, verdict.field)) {
    throw outputErrors.verdictFieldInvalid(role.name, `the verdict field "${verdict.field}" is not a field of the output schema ${schema.file} (fields: ${Object.keys(properties).join(', ')})`);
  }
  return verdict;
}

/** The schema as a CLI gets it: without the `x-` keywords, which are supervisor's, not JSON Schema's. */
export function withoutExtensions(schema: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !key.startsWith('x-')));
}
