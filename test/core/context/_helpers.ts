/** Shared pieces of the context-packing tests: a Role built by hand, a registry of the built-in packers. */
import { createRegistry, type Registry } from '../../../core/registry.ts';
import type { Role, RoleContext } from '../../../core/roles/role.ts';
import { packers } from '../../../plugins/packers/index.ts';
import type { Plugin } from '../../../core/plugin-api/contracts.ts';
import { createRole } from '../../../core/roles/role.ts';

export function makeRole(context: RoleContext = {}, over: Partial<Role> = {}): Role {
  return createRole({ name: 'tester', description: 'test role', system_prompt: 'You are a careful tester.', context, file: '/dev/null', ...over });
}

/** The built-in packers, plus any extra (fake) plugins given. */
export function packerRegistry(...extra: Plugin[]): Registry {
  return createRegistry([
    ...packers.map((b) => ({ plugin: b.plugin, source: 'builtin', layer: 'builtin' })),
    ...extra.map((plugin) => ({ plugin, source: 'test', layer: 'cli' })),
  ]);
}

/** A string of exactly n characters. */
export const chars = (n: number, c = 'x') => c.repeat(n);
