/**
 * Checks one role file before it is merged: the fields the merge itself depends on must have
 * the right shape (lists stay lists, mappings stay mappings), and the files it names
 * (instructions, an output schema given as a path) are resolved relative to that role file and
 * must exist. Everything else is left to the JSON Schema check of the merged role.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, posix, relative, resolve, dirname } from 'node:path';
import { realPathOrSelf } from '../fs/real-path.ts';
import { readAsset } from '../assets.ts';
import { roleErrors } from './errors.ts';
import { describeKind } from './parse-role-yaml.ts';
import type { RoleFile } from './role-files.ts';

export const ROLE_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

type Check = (value: unknown) => boolean;
const isList: Check = Array.isArray;
const isMapping: Check = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString: Check = (v) => typeof v === 'string';
const isStringList: Check = (v) => Array.isArray(v) && v.every((item) => typeof item === 'string' && item !== '');

const PRE_MERGE_TYPES: [field: string, check: Check, expected: string][] = [
  ['flags', isList, 'a list'],
  ['gates', isList, 'a list'],
  ['allowed_commands', isStringList, 'a list of commands (e.g. ["npm test"])'],
  ['setup', isList, 'a list'],
  ['context', isMapping, 'a mapping'],
  ['config', isMapping, 'a mapping'],
  ['extends', isString, 'a string (the parent role name)'],
  ['system_prompt_additions', isString, 'a string'],
  ['output_schema', isString, 'a string (a schema name or a path)'],
  ['instructions', isStringList, 'a list of file paths'],
];

/** Every pre-merge type problem of one file, thrown together as ROLE_TYPE. */
export function checkPreMergeTypes(raw: Record<string, unknown>, file: string): void {
  const problems = PRE_MERGE_TYPES.filter(([field, check]) => field in raw && !check(raw[field])).map(
    ([field, , expected]) => `${field} must be ${expected}, got ${describeValue(raw[field], field === 'instructions')}`,
  );
  if (problems.length) throw roleErrors.types(file, problems);
  if (typeof raw.extends === 'string' && !ROLE_NAME_PATTERN.test(raw.extends)) throw roleErrors.badName(raw.extends, file);
}

function describeValue(value: unknown, itemwise: boolean): string {
  if (itemwise && Array.isArray(value)) return 'a list with an empty or non-string entry';
  return describeKind(value);
}

/** An output schema value is a path (not a name) when it has a folder part or a .json ending. */
export function isSchemaPath(value: string): boolean {
  return /[\\/]/.test(value) || /\.json$/i.test(value);
}

interface Resolved {
  /** What Role holds: an absolute path, or "<builtin>/..." for a built-in asset in the binary. */
  path: string;
  exists: boolean;
}

/** Whether `path` is `root` or inside it. */
function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Resolves a path named in a role file, relative to that file. The packing path rules hold: no
 * absolute path (nor "~/"), and the file, symlinks followed, stays inside the role file's
 * folder or the repository; a role from a cloned repository cannot have ~/.ssh/id_rsa or
 * /etc/shadow read into a prompt.
 */
function resolveRolePath(given: string, field: string, file: RoleFile, repoRoot: string): Resolved {
  if (file.asset) {
    const name = posix.normalize(posix.join(posix.dirname(file.asset), given));
    const asset = readAsset(name);
    return { path: asset?.displayPath ?? `<builtin>/${name}`, exists: asset !== undefined };
  }
  if (isAbsolute(given) || given.startsWith('~') || /^[A-Za-z]:/.test(given)) throw roleErrors.pathOutside(file.path, field, given, 'is absolute');
  const roleDir = dirname(file.path);
  const path = resolve(roleDir, given);
  const roots = [roleDir, repoRoot];
  if (!roots.some((root) => inside(path, root))) throw roleErrors.pathOutside(file.path, field, given, "leads out of the role file's folder and the repository");
  const exists = existsSync(path) && statSync(path).isFile();
  if (exists && !roots.map(realPathOrSelf).some((root) => inside(realpathSync(path), root))) {
    throw roleErrors.pathOutside(file.path, field, given, "is a symlink out of the role file's folder and the repository");
  }
  return { path, exists };
}

/**
 * Replaces `instructions` and a path-like `output_schema` with resolved paths, so each path
 * stays relative to the file that named it whatever the merge does later.
 */
export function resolveRolePaths(raw: Record<string, unknown>, file: RoleFile, repoRoot: string): Record<string, unknown> {
  const out = { ...raw };
  if (Array.isArray(raw.instructions)) {
    const resolved = (raw.instructions as string[]).map((given) => ({ given, ...resolveRolePath(given, 'instructions', file, repoRoot) }));
    const missing = resolved.filter((r) => !r.exists).map((r) => ({ given: r.given, resolved: r.path }));
    if (missing.length) throw roleErrors.fileMissing(file.path, 'instruction files', missing);
    out.instructions = resolved.map((r) => r.path);
  }
  if (typeof raw.output_schema === 'string' && isSchemaPath(raw.output_schema)) {
    const resolved = resolveRolePath(raw.output_schema, 'output_schema', file, repoRoot);
    if (!resolved.exists) throw roleErrors.fileMissing(file.path, 'an output schema file', [{ given: raw.output_schema, resolved: resolved.path }]);
    out.output_schema = resolved.path;
  }
  return out;
}
