/**
 * Whether a role asks for the legacy free-text grammar of the v2 contract (seed 003):
 * `config: { legacy: true }` in the role file, as the engine reads it.
 */
import type { Role } from '../roles/role.ts';

export function wantsLegacyGrammar(role: Partial<Pick<Role, 'config'>>): boolean {
  return role.config?.legacy === true;
}
