/**
 * Numeric command options. They are declared as strings so an error can quote what was typed
 * (yargs would say NaN, or quietly fall back to a default).
 */
import { errors } from '../errors.ts';
import type { Args } from './command.ts';

export interface NumberRule {
  /** Whole numbers only. */
  integer?: boolean;
  /** Allow 0 (otherwise the value must be > 0). */
  zero?: boolean;
  max?: number;
}

/** `--<name>` as a number within the rule, undefined when not given; a usage error otherwise. */
export function positive(args: Args, name: string, { integer = false, zero = false, max = Infinity }: NumberRule = {}): number | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  const n = String(value).trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(n) || (zero ? n < 0 : n <= 0) || (integer && !Number.isInteger(n)) || n > max) {
    const range = `${zero ? '>= 0' : '> 0'}${max === Infinity ? '' : ` and <= ${max}`}`;
    throw errors.usage(`--${name} expects ${integer ? 'a whole number' : 'a number'} ${range}, got "${String(value)}"`);
  }
  return n;
}
