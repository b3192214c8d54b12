/**
 * Typed reads of yargs' parsed arguments: each checks the type it expects at run time (yargs
 * declared it; nothing is cast), so the translators from argv to a use case's input read as
 * plain field assignments.
 */
import { errors } from '../errors.ts';
import type { Args } from './command.ts';

/** A string option, undefined when not given. */
export function stringArg(args: Args, name: string): string | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw errors.usage(`--${name} expects a single value`);
}

/** A repeatable option's values (empty when not given). */
export function listArg(args: Args, name: string): string[] {
  const value = args[name];
  if (value === undefined) return [];
  const values: unknown[] = Array.isArray(value) ? value : [value];
  return values.map((item) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number') return String(item);
    throw errors.usage(`--${name} expects text values`);
  });
}

/** A boolean option: true only when given as true. */
export function flagArg(args: Args, name: string): boolean {
  return args[name] === true;
}

/** A boolean option that defaults to true (`--no-<name>` makes it false). */
export function onUnlessNo(args: Args, name: string): boolean {
  return args[name] !== false;
}
