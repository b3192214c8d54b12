/** Small helpers for role tests: temporary repo and home folders holding role files. */
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { RoleLoadOptions } from '../../../core/roles/load-role.ts';
import { tempDir, writeFiles } from '../../helpers/git-repo.ts';

/** Adapter names the tests register: a user adapter, plus `claude` for built-in parents. */
export const ADAPTERS = ['claude', 'fixture-cli'];

/** The fields every valid base role needs. */
export const BASE = { description: 'A test role.', cli: 'fixture-cli', system_prompt: 'You review code.\n' };

export interface RoleEnv {
  opts: RoleLoadOptions;
  repoRoles: string;
  homeRoles: string;
}

/** Role files in <repo>/.supervisor/roles (`repo`) and ~/.supervisor/roles (`home`); values are YAML text or objects. */
export async function roleEnv(
  files: { repo?: Record<string, unknown>; home?: Record<string, unknown>; other?: Record<string, string> } = {},
  adapters = ADAPTERS,
): Promise<RoleEnv & { repoRoot: string; homeDir: string }> {
  const repoRoot = await tempDir('sv-roles-repo-');
  const homeDir = await tempDir('sv-roles-home-');
  const text = (v: unknown) => (typeof v === 'string' ? v : stringify(v));
  const under = (map: Record<string, unknown> = {}) =>
    Object.fromEntries(Object.entries(map).map(([name, v]) => [join('.supervisor', 'roles', name), text(v)])) as Record<string, string>;
  await writeFiles(repoRoot, { ...under(files.repo), ...(files.other ?? {}) });
  await writeFiles(homeDir, under(files.home));
  return {
    opts: { repoRoot, homeDir, adapters },
    repoRoot,
    homeDir,
    repoRoles: join(repoRoot, '.supervisor', 'roles'),
    homeRoles: join(homeDir, '.supervisor', 'roles'),
  };
}

/** Runs `fn`, expecting a SupervisorError with `code`; returns it. */
export async function rejects(fn: () => Promise<unknown>, code: string): Promise<Error & { code: string; details: Record<string, unknown> }> {
  try {
    await fn();
  } catch (error) {
    const e = error as Error & { code: string; details: Record<string, unknown> };
    if (e.code !== code) throw new Error(`expected ${code}, got ${e.code}: ${e.message}`, { cause: error });
    return e;
  }
  throw new Error(`expected ${code}, but it succeeded`);
}
