/** Role-loading options from the registry: roles may name only plugins that are registered. */
import type { Registry } from '../registry.ts';
import type { RoleLoadOptions } from './load-role.ts';

export function roleLoadOptions(registry: Registry, where: { repoRoot: string; homeDir: string }): RoleLoadOptions {
  // Parser and packer names only constrain roles when some are registered at all.
  const known = (names: string[]) => (names.length ? names : undefined);
  return {
    repoRoot: where.repoRoot,
    homeDir: where.homeDir,
    adapters: registry.names('adapter'),
    parsers: known(registry.names('parser')),
    packers: known(registry.names('packer')),
    configKeys: registry.list().flatMap((e) => (e.plugin.kind === 'adapter' ? (e.plugin.configKeys ?? []) : [])),
    contextKeys: registry.list().flatMap((e) => (e.plugin.kind === 'packer' ? (e.plugin.contextKeys ?? []) : [])),
  };
}

/** A role argument is a file when it looks like one (a path or a .yaml name), else a role name. */
export function looksLikeRoleFile(arg: string): boolean {
  return /[\\/]/.test(arg) || /\.ya?ml$/.test(arg);
}
