/**
 * The ranges of a role's numeric settings, read from schemas/role.schema.json: the one source
 * of truth, so `--timeout`, `--retries`, `--gate-timeout` and `--max-cost-usd` accept exactly
 * what `config.timeout`, `config.max_retries`, ... accept in a role file.
 */
import { readAsset } from '../assets.ts';
import type { NumberRange } from './number-range.ts';

export type { NumberRange } from './number-range.ts';

type Json = Record<string, unknown>;
let properties: Record<string, Json> | undefined;

function configProperties(): Record<string, Json> {
  if (properties) return properties;
  const asset = readAsset('schemas/role.schema.json');
  const schema = asset ? (JSON.parse(asset.content) as { properties?: { config?: { properties?: Record<string, Json> } } }) : {};
  properties = schema.properties?.config?.properties ?? {};
  return properties;
}

const num = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** The range of `config.<key>`; an unconstrained number when the schema does not say. */
export function configRange(key: string): NumberRange {
  const spec = configProperties()[key] ?? {};
  return {
    integer: spec.type === 'integer',
    ...(num(spec.minimum) === undefined ? {} : { min: num(spec.minimum) }),
    ...(num(spec.exclusiveMinimum) === undefined ? {} : { exclusiveMin: num(spec.exclusiveMinimum) }),
    ...(num(spec.maximum) === undefined ? {} : { max: num(spec.maximum) }),
  };
}
