/**
 * String options that must hold something when given: `--cli ''` or `--gate ''` is a usage
 * error, never quietly the same as leaving the option out (an empty --cli used to fall back to
 * the role's CLI; an empty --gate was a gate that runs nothing).
 */
import { errors } from '../errors.ts';

/** The option's value (trimmed), undefined when it was not given; empty is a usage error. */
export function nameOption(args: Record<string, unknown>, name: string, expected: string): string | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (!text) throw errors.usage(`--${name} is empty: give ${expected}`);
  return text;
}

/** A repeatable option's values; an empty one is a usage error. */
export function nonEmptyList(args: Record<string, unknown>, name: string, expected: string): string[] {
  const values = ((args[name] as unknown[] | undefined) ?? []).map(String);
  if (values.some((value) => !value.trim())) throw errors.usage(`--${name} '' is empty: give ${expected}`);
  return values;
}
