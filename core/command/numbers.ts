/**
 * Numeric command options. They are parsed as strings so an error can quote what was typed
 * (yargs would say NaN, or quietly fall back to a default), and shown as [number] in --help.
 */
import type { Argv } from 'yargs';
import { errors } from '../errors.ts';
import { describeRange, inRange, type NumberRange } from '../roles/number-range.ts';
import type { Args } from './command.ts';

export interface NumberRule {
  /** Whole numbers only. */
  integer?: boolean;
  /** Allow 0 (otherwise the value must be > 0). */
  zero?: boolean;
  max?: number;
}

/**
 * Declares a numeric option. Declared a string first, yargs keeps the text as typed; `.number()`
 * after it only changes the type shown in --help (yargs-parser does not convert string keys).
 */
export function numberOption(y: Argv, name: string, describe: string): Argv {
  return y.option(name, { type: 'string', describe }).number(name);
}

/** `--<name>` as a number in the range, undefined when not given; a usage error otherwise. */
export function numberArg(args: Args, name: string, range: NumberRange): number | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  const n = String(value).trim() === '' ? NaN : Number(value);
  if (!inRange(n, range)) throw errors.usage(`--${name} expects ${describeRange(range)}, got "${String(value)}"`);
  return n;
}

/**
 * `--<name>`, within the range the role schema gives `config.<configKey>` (one source of truth).
 * The schema is read on first use, not at start-up.
 */
export async function roleSettingArg(args: Args, name: string, configKey: string): Promise<number | undefined> {
  if (args[name] === undefined) return undefined;
  const { configRange } = await import('../roles/config-ranges.ts');
  return numberArg(args, name, configRange(configKey));
}

/** `--<name>` as a number within the rule, undefined when not given; a usage error otherwise. */
export function positive(args: Args, name: string, { integer = false, zero = false, max }: NumberRule = {}): number | undefined {
  return numberArg(args, name, { integer, ...(zero ? { min: 0 } : { exclusiveMin: 0 }), ...(max === undefined ? {} : { max }) });
}
