/** Whether a role asks for the legacy free-text grammar of the v2 contract (seed 003). */
import type { Role } from '../roles/role.ts';

/** The role extension that turns the legacy grammar on: `x-legacy-grammar: true`. */
export const LEGACY_GRAMMAR_FIELD = 'x-legacy-grammar';

export function wantsLegacyGrammar(role: Partial<Pick<Role, 'extensions'>>): boolean {
  return role.extensions?.[LEGACY_GRAMMAR_FIELD] === true;
}
