/**
 * Every role error: a SupervisorError with a stable ROLE_* code (all exit 2) and a message that
 * names the file and the problem. Codes are API: add freely, never rename.
 */
import { SupervisorError } from '../errors.ts';
import { suggest } from '../text/suggest.ts';

/** One schema violation of a merged role, attributed to the file that gave the field. */
export interface RoleViolation {
  /** JSON pointer into the merged role, e.g. "/context/token_budget". */
  pointer: string;
  message: string;
  keyword: string;
  /** The role file the offending (or missing) field belongs to. */
  file: string;
}

const NAME_RULE = 'Role names start with a letter and hold only letters, digits, "-" and "_".';

export const roleErrors = {
  notFound: (name: string, searched: string[], known: string[]) =>
    new SupervisorError('ROLE_NOT_FOUND', `No role named "${name}"${suggest(name, known)} (looked in ${searched.join(', ')})`, {
      details: { name, searched, known },
      hint: known.length
        ? `Known roles: ${some(known)}. Add one as .supervisor/roles/${name}.yaml in the repository.`
        : `Add one as .supervisor/roles/${name}.yaml in the repository.`,
    }),

  badName: (name: string, file?: string) =>
    new SupervisorError('ROLE_NAME', `Invalid role name ${JSON.stringify(name)}${file ? ` in ${file}` : ''}`, {
      details: file ? { name, file } : { name },
      hint: NAME_RULE,
    }),

  ambiguous: (name: string, dir: string) =>
    new SupervisorError('ROLE_AMBIGUOUS', `Both ${name}.yaml and ${name}.yml exist in ${dir}`, {
      details: { name, file: dir },
      hint: 'Keep one of the two files.',
    }),

  tooLarge: (file: string, bytes: number, limit: number) =>
    new SupervisorError('ROLE_TOO_LARGE', `${file} is ${kib(bytes)}; role files are limited to ${kib(limit)}`, {
      details: { file, bytes, limit },
      hint: 'Move long instructions into a Markdown file and name it under `instructions:`.',
    }),

  yaml: (file: string, reason: string, where?: { line: number; column: number }, snippet?: string) =>
    new SupervisorError(
      'ROLE_YAML',
      `Invalid YAML in ${file}${where ? ` at line ${where.line}, column ${where.column}` : ''}: ${reason}${snippet ? `\n${snippet}` : ''}`,
      { details: { file, ...(where ?? {}) }, hint: 'Fix the YAML syntax; a role file is one YAML mapping of role fields.' },
    ),

  empty: (file: string) =>
    new SupervisorError('ROLE_EMPTY', `${file} is empty: a role file must be a YAML mapping of role fields`, {
      details: { file },
      hint: 'A role needs at least name, description, cli and system_prompt (or extends and a name).',
    }),

  notMapping: (file: string, got: string) =>
    new SupervisorError('ROLE_NOT_MAPPING', `${file} must hold a YAML mapping of role fields, but its top level is ${got}`, {
      details: { file, got },
      hint: 'Write the role as "key: value" lines at the top level (name:, description:, cli:, ...).',
    }),

  types: (file: string, problems: string[]) =>
    new SupervisorError('ROLE_TYPE', `${file} has fields of the wrong type: ${problems.join('; ')}`, {
      details: { file, problems },
    }),

  /** An instruction or output schema path that leaves the role's folder and the repository. */
  pathOutside: (file: string, field: string, given: string, why: string) =>
    new SupervisorError('ROLE_PATH_OUTSIDE', `${file} names ${field} ${JSON.stringify(given)}, which ${why}`, {
      details: { file, field, given, why },
      hint: "Paths in a role file are relative to the role file's folder and must stay inside it or the repository (no absolute paths, no .. out, no symlinks out).",
    }),
  fileMissing: (file: string, field: string, missing: { given: string; resolved: string }[]) =>
    new SupervisorError(
      'ROLE_FILE_MISSING',
      `${file} names ${field} that do not exist: ${missing.map((m) => `"${m.given}" (looked for ${m.resolved})`).join(', ')}`,
      {
        details: { file, field, missing },
        hint: 'Paths in a role file are relative to the folder of that role file.',
      },
    ),

  cycle: (names: string[], file: string, selfExtension = false) =>
    new SupervisorError('ROLE_CYCLE', `Role inheritance cycle: ${names.join(' -> ')} (in ${file})`, {
      details: { file, cycle: names },
      hint: selfExtension
        ? 'A role that extends its own name extends the role of that name in a lower-precedence folder (~/.supervisor/roles, then the built-ins); there is none.'
        : 'Make one of these roles extend a role outside the cycle, or none.',
    }),

  tooDeep: (names: string[], file: string, limit: number) =>
    new SupervisorError('ROLE_DEPTH', `The extends chain of ${file} is deeper than ${limit} roles: ${names.join(' -> ')} -> ...`, {
      details: { file, chain: names, limit },
      hint: 'Flatten the chain: merge some overlays into one.',
    }),

  parentMissing: (file: string, parent: string, searched: string[], known: string[]) =>
    new SupervisorError('ROLE_PARENT_MISSING', `${file} extends "${parent}", but no role named "${parent}" exists (looked in ${searched.join(', ')})`, {
      details: { file, parent, searched, known },
      hint: known.length ? `Known roles: ${some(known)}.` : undefined,
    }),

  invalid: (name: string, file: string, violations: RoleViolation[]) =>
    new SupervisorError(
      'ROLE_INVALID',
      `Role "${name}" (${file}) is invalid:\n${violations.map((v) => `  ${v.pointer || '/'}: ${v.message}${v.file === file ? '' : ` [from ${v.file}]`}`).join('\n')}`,
      { details: { file, name, violations }, hint: 'Fix the fields listed; `supervisor roles validate` checks every role at once.' },
    ),
} as const;

/** A list short enough to read in a hint. */
function some(names: string[], max = 20): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more (supervisor roles list)`;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
}
