/**
 * The `run` use case: one role on one task (supervisor run, MCP `run`). The typed input is the
 * request; the entry point's translator fills it from its own schema. Refusals that do not need
 * the role loaded happen here (an MCP client's role file outside the repository); the rest are
 * the engine's (core/run/prepare.ts), the same for every entry point.
 */
import { resolve } from 'node:path';
import type { TokenizerName } from '../context/tokens.ts';
import type { RunDeps, RunHooks, RunRequest, RunTuning } from '../run/options.ts';
import { looksLikeRoleFile } from '../roles/load-options.ts';
import { resolveTargets } from './targets.ts';
import type { AppDeps } from './deps.ts';
import { processTuning } from './env.ts';
import { appErrors } from './errors.ts';
import { insideRepository } from './plan-trust.ts';

export interface RunInput {
  /** A role name, or a role file path (relative to deps.cwd). */
  role: string;
  task: string;
  /** Files the task is about, relative to deps.cwd. */
  targets: string[];
  /** Extra context, already read: key → text. */
  extraContext?: Record<string, string>;
  cli?: string;
  sandbox?: string;
  allowHosts?: string[];
  passEnv?: string[];
  allowCommands?: string[];
  gates?: string[];
  setup?: string[];
  timeoutSec?: number;
  retries?: number;
  gateTimeoutSec?: number;
  maxCostUsd?: number;
  worktree?: boolean;
  keepWorktree?: boolean;
  secretScan?: boolean;
  tokenizer?: TokenizerName;
  base?: string;
  review?: string;
}

/** A role file outside the repository is the user's own only when the entry point says so (MCP: --trust). */
export async function refuseForeignRoleFile(role: string, deps: AppDeps): Promise<void> {
  if (!looksLikeRoleFile(role) || deps.outsideFilesAreUsers) return;
  const file = resolve(deps.cwd, role);
  if (insideRepository(file, deps.repoRoot) || (await deps.trust()).trusted) return;
  throw appErrors.untrustedPath('role file', file, deps.repoRoot);
}

/** The engine's request, dependencies (tuning inside) and notice hook for this input (no signal, no event callback). */
export async function runRequest(input: RunInput, deps: AppDeps): Promise<{ request: RunRequest; deps: RunDeps; hooks: RunHooks }> {
  await refuseForeignRoleFile(input.role, deps);
  const request: RunRequest = {
    role: input.role,
    task: input.task,
    targets: await resolveTargets(input.targets, deps.cwd, deps.repoRoot),
    extraContext: input.extraContext ?? {},
    cli: input.cli,
    sandbox: input.sandbox,
    allowHosts: input.allowHosts ?? [],
    passEnv: input.passEnv ?? [],
    gates: input.gates ?? [],
    allowCommands: input.allowCommands ?? [],
    setup: input.setup ?? [],
    worktree: input.worktree !== false,
    keepWorktree: input.keepWorktree === true,
    secretScan: input.secretScan !== false,
    maxCostUsd: input.maxCostUsd,
    ...(input.tokenizer === undefined ? {} : { tokenizer: input.tokenizer }),
    ...(input.base === undefined ? {} : { base: input.base }),
    ...(input.review === undefined ? {} : { review: input.review }),
  };
  const tuning: RunTuning = { timeoutSec: input.timeoutSec, retries: input.retries, gateTimeoutSec: input.gateTimeoutSec, ...processTuning(deps.env) };
  return {
    request,
    deps: { repoRoot: deps.repoRoot, trustedRepo: (await deps.trust()).trusted, homeDir: deps.homeDir, env: deps.env, registry: await deps.registry(), tuning },
    hooks: { onNotice: (message: string) => deps.warn(`notice: ${message}`) },
  };
}
