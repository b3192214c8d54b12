/**
 * The pack use case: the packed file context the template flow puts into a prompt, for a role
 * (its context spec) or for ad-hoc globs.
 */
import { resolve } from 'node:path';
import type { TokenizerName } from '../context/tokens.ts';
import type { PackedContext } from '../context/types.ts';
import { resolveTargets } from './targets.ts';
import { looksLikeRoleFile, roleLoadOptions } from '../roles/load-options.ts';
import { createRole, type Role } from '../roles/role.ts';
import type { AppDeps } from './deps.ts';
import { refuseForeignRoleFile } from './run.ts';

export interface PackInput {
  /** A role name or role file (relative to deps.cwd); none: only the globs. */
  role?: string;
  packers: string[];
  include: string[];
  exclude: string[];
  /** Files relative to deps.cwd. */
  targets: string[];
  /** Extra sections, already read: key → text. */
  extraContext: Record<string, string>;
  budgetTokens?: number;
  style?: 'markdown' | 'xml';
  tokenizer: TokenizerName;
  secretScan: boolean;
  /** Load the tokenizer so counts are exact when reported. */
  countTokens: boolean;
}

async function loadRole(name: string | undefined, deps: AppDeps): Promise<Role> {
  // A role for packing without one: only the input's context.
  if (name === undefined) return createRole({ name: 'pack', description: 'ad-hoc pack', file: deps.repoRoot });
  await refuseForeignRoleFile(name, deps);
  const options = roleLoadOptions(await deps.registry(), { repoRoot: deps.repoRoot, homeDir: deps.homeDir });
  const { loadRole: byName, loadRoleFile } = await import('../roles/load-role.ts');
  return looksLikeRoleFile(name) ? loadRoleFile(resolve(deps.cwd, name), options) : byName(name, options);
}

export async function pack(input: PackInput, deps: AppDeps): Promise<PackedContext> {
  const role = await loadRole(input.role, deps);
  const targets = await resolveTargets(input.targets, deps.cwd, deps.repoRoot);
  const { packFileContext } = await import('../context/pack.ts');
  const packed = await packFileContext({
    role,
    repoRoot: deps.repoRoot,
    trustedRepo: (await deps.trust()).trusted,
    targets,
    extraContext: input.extraContext,
    registry: await deps.registry(),
    packers: input.packers,
    // Without a role, an ad-hoc pack with no include packs the whole repository.
    include: input.role !== undefined || input.include.length || targets.length ? input.include : ['**/*'],
    exclude: input.exclude,
    // Checked once, where the role's token_budget is checked too (BUDGET_INVALID).
    ...(input.budgetTokens === undefined ? {} : { budgetTokens: input.budgetTokens }),
    ...(input.style ? { style: input.style } : {}),
    // Without a role there is no template around the files: the whole budget is theirs.
    reserveTemplate: input.role !== undefined,
    tokenizer: input.tokenizer,
    ...(input.secretScan ? {} : { secretScan: false }),
    env: deps.env,
    notice: (message) => deps.warn(`notice: ${message}`),
  });
  // Counts are taken when reported, all at once, and only then is the tokenizer needed.
  if (input.countTokens) await packed.prepareCounts?.();
  return packed;
}
