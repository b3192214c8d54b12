/**
 * Finds an executable on PATH the way a shell would, without running anything. Relative PATH
 * entries (`node_modules/.bin`, `.`) are skipped: they name whatever folder a command happens
 * to run in, which for supervisor is often a repository it does not trust.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

export function which(bin: string, env: Record<string, string | undefined>): string | undefined {
  const isFile = (p: string) => {
    try {
      if (!statSync(p).isFile()) return false;
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (isAbsolute(bin) || bin.includes('/')) return isFile(bin) ? bin : undefined;
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').concat('') : [''];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const ext of extensions) {
      const candidate = join(dir, bin + ext);
      if (isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * A program from the system's own folders, found once per process: what a shell of ours with no
 * environment runs beside a command (`env`, `cat`: launcher.ts, standby.ts), never one a PATH
 * of the caller's or a repository's could name.
 */
const systemFound = new Map<string, string | undefined>();
export function systemProgram(name: string): string | undefined {
  if (!systemFound.has(name)) systemFound.set(name, which(name, { PATH: '/usr/bin:/bin' }));
  return systemFound.get(name);
}
