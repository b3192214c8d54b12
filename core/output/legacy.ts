/**
 * Whether a role asks for the legacy free-text grammar of the v2 contract (seed 003):
 * `config: { legacy: true }` in the role file, as the engine reads it.
 */

export function wantsLegacyGrammar(role: { config?: Readonly<Record<string, unknown>> }): boolean {
  return role.config?.legacy === true;
}
