/** Loads the role a command names, by name or by file path, with the registry's plugin names. */
import { resolve } from 'node:path';
import type { Role } from '../roles/role.ts';
import type { RoleLoadOptions } from '../roles/load-role.ts';
import { looksLikeRoleFile, roleLoadOptions } from '../roles/load-options.ts';
import type { CliContext } from './context.ts';

export async function roleOptionsFor(ctx: CliContext): Promise<RoleLoadOptions> {
  return roleLoadOptions(await ctx.registry(), { repoRoot: ctx.repoRoot, homeDir: ctx.deps.homeDir });
}

/** What `roles list/show/validate` (and the MCP roles tools) load with: every problem of a role reported, a missing template or a broken output schema file included. */
export async function roleCheckingOptions(ctx: CliContext): Promise<RoleLoadOptions> {
  return { ...(await roleOptionsFor(ctx)), checkReferences: true };
}

export async function loadRoleArg(arg: string, ctx: CliContext): Promise<Role> {
  const options = await roleOptionsFor(ctx);
  const { loadRole, loadRoleFile } = await import('../roles/load-role.ts');
  return looksLikeRoleFile(arg) ? loadRoleFile(resolve(ctx.deps.cwd, arg), options) : loadRole(arg, options);
}
