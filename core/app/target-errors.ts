/** Errors of `--target` (core/app/targets.ts): usage errors (exit 2) naming the target. */
import { SupervisorError } from '../errors.ts';

const HINT = '--target names an existing file, relative to the current folder or absolute inside the repository.';

export const targetErrors = {
  notFound: (target: string, close: string[]) =>
    new SupervisorError('TARGET_NOT_FOUND', `No such file for --target: ${target}${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`, {
      details: { target, suggestions: close },
      hint: HINT,
    }),
  folder: (target: string) =>
    new SupervisorError('TARGET_NOT_FILE', `--target ${target} is a folder, not a file`, {
      details: { target },
      hint: `${HINT} To pack a folder's files, use the role's context include (or pack --include '${target.replace(/\/+$/, '')}/**').`,
    }),
  glob: (target: string) =>
    new SupervisorError('TARGET_NOT_FILE', `--target ${target} looks like a glob and no file has that name`, {
      details: { target },
      hint: `${HINT} Give each file with its own --target, or select files by glob with the role's context include (or pack --include).`,
    }),
  notFile: (target: string) =>
    new SupervisorError('TARGET_NOT_FILE', `--target ${target} is not a regular file`, { details: { target }, hint: HINT }),
} as const;
