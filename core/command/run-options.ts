/**
 * The options of one `runRole` call, from the `run` command's arguments: shared by `supervisor
 * run` and the MCP server's `run` tool (which hands its inputs over as these arguments), so
 * both check numbers against the role schema's ranges and default the same way.
 */
import type { TokenizerName } from '../context/tokens.ts';
import type { RunRoleOptions } from '../run/options.ts';
import { errors } from '../errors.ts';
import type { Args } from './command.ts';
import type { CliContext } from './context.ts';
import { nameOption, nonEmptyList } from './name-option.ts';
import { roleSettingArg } from './numbers.ts';
import { resolveTargets } from './targets.ts';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Test and tuning knobs read from the environment (documented in README "Running roles"). */
function envMs(ctx: CliContext, name: string): number | undefined {
  const raw = ctx.deps.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  // A timer longer than 2^31-1 ms fires at once: refused like --timeout out of range.
  if (!Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) throw errors.usage(`${name} must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, got "${raw}"`);
  return value;
}

/**
 * Everything but the task's own text, the signal and the event callback. `cwd` is where
 * relative targets are read from (the working folder for the command line, the repository
 * for MCP); `extraContext` is already read.
 */
export async function runRoleOptions(args: Args, ctx: CliContext, input: { task: string; cwd: string; extraContext?: Record<string, string> }): Promise<RunRoleOptions> {
  return {
    role: String(args.role),
    task: input.task,
    targets: await resolveTargets(((args.target as string[] | undefined) ?? []).map(String), input.cwd, ctx.repoRoot),
    extraContext: input.extraContext ?? {},
    repoRoot: ctx.repoRoot,
    trustedRepo: (await ctx.trust()).trusted,
    homeDir: ctx.deps.homeDir,
    env: ctx.deps.env,
    registry: await ctx.registry(),
    cli: nameOption(args, 'cli', 'an adapter name (supervisor plugins list)'),
    sandbox: nameOption(args, 'sandbox', "a sandbox name: none, bwrap, docker, podman or a plugin's"),
    allowHosts: ((args['allow-host'] as string[] | undefined) ?? []).map(String),
    passEnv: ((args['pass-env'] as string[] | undefined) ?? []).map(String),
    timeoutSec: await roleSettingArg(args, 'timeout', 'timeout'),
    retries: await roleSettingArg(args, 'retries', 'max_retries'),
    gateTimeoutSec: await roleSettingArg(args, 'gate-timeout', 'gate_timeout'),
    gates: nonEmptyList(args, 'gate', 'a command to run'),
    allowCommands: nonEmptyList(args, 'allow-command', 'a command the CLI may run, e.g. "npm test"'),
    setup: nonEmptyList(args, 'setup', 'a set-up command to run'),
    worktree: args.worktree !== false,
    keepWorktree: args['keep-worktree'] === true,
    secretScan: args['secret-scan'] !== false,
    maxCostUsd: await roleSettingArg(args, 'max-cost-usd', 'max_cost_usd'),
    // yargs has checked it against its choices.
    ...(args.tokenizer === undefined ? {} : { tokenizer: args.tokenizer as TokenizerName }),
    ...(typeof args.base === 'string' ? { base: args.base } : {}),
    ...(typeof args.review === 'string' ? { review: args.review } : {}),
    graceMs: envMs(ctx, 'SUPERVISOR_KILL_GRACE_MS'),
    backoffMs: envMs(ctx, 'SUPERVISOR_RETRY_BACKOFF_MS'),
    onNotice: (message: string) => ctx.warn(`notice: ${message}`),
  };
}
