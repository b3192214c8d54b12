/**
 * A sandboxed process sees only the variables it was granted, never the caller's whole
 * environment (a `MY_SECRET_TOKEN` in the shell stays outside). Granted: the basics every
 * program expects (PATH, TERM, locale, HOME and TMPDIR, which the sandbox points at its own),
 * supervisor's own SUPERVISOR_* variables, what the adapter declares (`access.env`: its API
 * keys and settings), what the adapter's command sets itself, and what the user names
 * (`--pass-env NAME`, role `sandbox.env`). A name ending in `*` grants a prefix.
 */
import { sandboxErrors } from './errors.ts';

/** Always passed: program basics and supervisor's own. */
export const BASE_ENV = ['PATH', 'HOME', 'TMPDIR', 'TERM', 'COLORTERM', 'NO_COLOR', 'LANG', 'LANGUAGE', 'LC_*', 'TZ', 'SUPERVISOR_*'];

const NAME = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;

/** Checks user-given names (flags, role): a variable name, or a prefix ending in `*`. */
export function checkEnvNames(names: unknown, field: string): string[] {
  if (names === undefined) return [];
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string' && NAME.test(n))) {
    throw sandboxErrors.badOption(field, names, 'a list of variable names (NAME, or a prefix NAME_*)');
  }
  return names as string[];
}

function granted(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p));
}

/** The environment reduced to the base names and `patterns`. */
export function allowedEnv(env: Record<string, string | undefined>, patterns: readonly string[]): Record<string, string | undefined> {
  const all = [...BASE_ENV, ...patterns];
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => value !== undefined && granted(name, all)));
}
