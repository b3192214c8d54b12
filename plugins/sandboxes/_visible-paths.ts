/**
 * What a sandbox that hides /tmp, the home and the repository must show again, read-only, so
 * the command still starts: the PATH folders inside those areas, the command's own install
 * (its node_modules, or its package, or its folder) and supervisor itself (the bridge).
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import type { SandboxRequest } from '../../core/plugin-api/index.ts';
import { dirname, isAbsolute, join, sep } from 'node:path';

export function inside(path: string, area: string): boolean {
  return path === area || path.startsWith(area.endsWith(sep) ? area : area + sep);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The install a file belongs to: its outermost node_modules folder, else its package, else its folder. */
export function installRoot(file: string): string {
  const parts = file.split(sep);
  const modules = parts.indexOf('node_modules');
  if (modules > 0) return parts.slice(0, modules + 1).join(sep) || sep;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() ? file : dirname(file);
}

/**
 * Paths under a hidden area that the command needs, to bind read-only (deduplicated, outermost
 * first). A file whose install would hold a `whole` area (the home, the checkout, /tmp: a binary
 * lying in /tmp, a script under a home that has a package.json) is shown alone, never that area.
 */
export function pathsToShow(input: { hidden: string[]; pathVar: string | undefined; files: (string | null | undefined)[]; whole?: string[] }): string[] {
  const wanted = new Set<string>();
  const isHidden = (p: string) => input.hidden.some((area) => area && inside(p, area));
  for (const dir of (input.pathVar ?? '').split(':')) {
    if (dir && isAbsolute(dir) && isHidden(dir) && existsSync(dir)) wanted.add(dir);
  }
  for (const file of input.files) {
    if (!file || !isAbsolute(file)) continue;
    for (const candidate of [file, real(file)]) {
      if (!isHidden(candidate) || !existsSync(candidate)) continue;
      const root = installRoot(candidate);
      wanted.add((input.whole ?? []).some((area) => inside(area, root)) ? candidate : root);
    }
  }
  const sorted = [...wanted].sort((a, b) => a.length - b.length);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => inside(p, q)));
}

/**
 * HOME and TMPDIR inside a sandbox: an adapter may place them in the worktree or its scratch
 * folder (its command's env, e.g. a CLI whose helpers must live beside its data); anything else
 * becomes the sandbox's own home and /tmp.
 */
export function placedHomeAndTmp(request: SandboxRequest, home: string | undefined): { HOME: string | undefined; TMPDIR: string } {
  const { command, cwd, scratchDir } = request;
  const writable = (value: string | undefined): value is string => value !== undefined && isAbsolute(value) && (inside(value, cwd) || inside(value, scratchDir));
  return { HOME: writable(command.env.HOME) ? command.env.HOME : home, TMPDIR: writable(command.env.TMPDIR) ? command.env.TMPDIR : '/tmp' };
}
