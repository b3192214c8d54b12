/**
 * The options every workflow use case that runs tasks takes (run, resume, approve, reject,
 * retry), as a typed input, and how they become the engine's options: adapter names and
 * `ROLE=NAME` choices checked, durations and variable names parsed, the recorded settings
 * applied. One place for the command line, MCP and any later entry point.
 */
import { errors } from '../errors.ts';
import type { Registry } from '../registry.ts';
import { suggest } from '../text/suggest.ts';
import { checkEnvNames } from '../sandbox/env-allowlist.ts';
import { nameList } from '../text/name-list.ts';
import type { Workflow } from '../plugin-api/workflow-model.ts';
import type { CliChoice, WorkflowRunOptions } from '../workflow/engine/context.ts';
import type { AppDeps } from './deps.ts';
import { processTuning } from './env.ts';
import type { GivenSettings, WorkflowSettings } from './settings.ts';

/** What a command gives for a workflow's runs; absent fields keep the recorded (or default) settings. */
export interface DriveInput {
  /** Adapter for every role (`NAME`) or for one (`ROLE=NAME`). */
  cli?: string[];
  jobs?: number;
  maxRounds?: number;
  maxCostUsd?: number;
  minRunUsd?: number;
  /** A duration: 90s, 5m, 1h. */
  quotaWait?: string;
  sandbox?: string;
  allowHosts?: string[];
  passEnv?: string[];
  allowCommands?: string[];
  /** The user's own commands fed every event (never recorded: each command gives its own). */
  onEvent?: string[];
  approveAll?: boolean;
  /** Lets this command loosen the recorded settings (reported and recorded). */
  loosen?: boolean;
}

/** `--cli` values: NAME for every role, ROLE=NAME for one. */
export function cliChoice(values: string[]): CliChoice | undefined {
  if (!values.length) return undefined;
  const choice: CliChoice = { byRole: {} };
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq < 0) {
      if (!value.trim()) throw errors.usage('--cli needs an adapter name, or ROLE=NAME');
      choice.all = value.trim();
    } else {
      const role = value.slice(0, eq).trim();
      const name = value.slice(eq + 1).trim();
      if (!role || !name) throw errors.usage(`--cli ${value}: give ROLE=NAME, e.g. --cli spec-reviewer=codex`);
      choice.byRole[role] = name;
    }
  }
  return choice;
}

/** `--cli ROLE=NAME` must name a role some task of the plan runs (a misspelt role would be ignored). */
export function checkCliRoles(choice: CliChoice | null | undefined, workflow: Workflow): void {
  const roles = [...new Set(workflow.tasks.flatMap((t) => [t.worker, ...t.reviewers]))];
  for (const [role, name] of Object.entries(choice?.byRole ?? {})) {
    if (!roles.includes(role)) throw errors.usage(`--cli ${role}=${name}: no task of this plan runs a role named "${role}"${suggest(role, roles)}`, `Roles this plan runs: ${nameList(roles, 10)}. Give --cli NAME for every role.`);
  }
}

function nonEmpty(name: string, values: string[] | undefined, expected: string): string[] | undefined {
  if (values?.some((value) => !value.trim())) throw errors.usage(`--${name} '' is empty: give ${expected}`);
  return values?.length ? values : undefined;
}

/** The settings this command gives, checked: adapter names exist, durations and variable names parse. */
export async function givenSettings(input: DriveInput, registry: Registry): Promise<GivenSettings> {
  const cli = cliChoice(input.cli ?? []);
  for (const name of [cli?.all, ...Object.values(cli?.byRole ?? {})]) if (name) registry.get('adapter', name);
  let quotaWaitMs: number | undefined;
  if (input.quotaWait !== undefined) {
    const { parseDuration } = await import('../workflow/engine/quota.ts');
    const ms = parseDuration(input.quotaWait);
    if (ms === null) throw errors.usage(`--quota-wait ${input.quotaWait}: give a duration such as 90s, 5m or 1h`);
    quotaWaitMs = ms;
  }
  const sandbox = input.sandbox?.trim();
  if (input.sandbox !== undefined && !sandbox) throw errors.usage("--sandbox is empty: give a sandbox name: none, bwrap, docker, podman or a plugin's");
  const passEnv = nonEmpty('pass-env', input.passEnv, 'a variable name');
  const given: GivenSettings = {
    ...(sandbox ? { sandbox } : {}),
    ...(cli ? { cli } : {}),
    ...(input.allowHosts?.length ? { allow_hosts: input.allowHosts } : {}),
    // Checked here: a bad name is a usage error before any task starts, not one per task.
    ...(passEnv ? { pass_env: checkEnvNames(passEnv, 'env') } : {}),
    ...(nonEmpty('allow-command', input.allowCommands, 'a command the CLI may run, e.g. "npm test"') ? { allow_commands: input.allowCommands! } : {}),
    ...(input.jobs === undefined ? {} : { jobs: input.jobs }),
    ...(input.maxRounds === undefined ? {} : { max_rounds: input.maxRounds }),
    ...(input.maxCostUsd === undefined ? {} : { max_cost_usd: input.maxCostUsd }),
    ...(input.minRunUsd === undefined ? {} : { min_run_usd: input.minRunUsd }),
    ...(quotaWaitMs === undefined ? {} : { quota_wait_ms: quotaWaitMs }),
  };
  return given;
}

/** The engine's options for these settings (no workflow, no callbacks). */
export async function engineOptions(settings: WorkflowSettings, input: DriveInput, deps: AppDeps, registry: Registry, trust: { repository: boolean; planCommands: boolean }): Promise<Omit<WorkflowRunOptions, 'workflow'>> {
  const { cliForModel } = await import('../workflow/model-cli.ts');
  const defined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);
  return {
    repoRoot: deps.repoRoot,
    homeDir: deps.homeDir,
    env: deps.env,
    registry,
    jobs: defined(settings.jobs),
    maxRounds: defined(settings.max_rounds),
    maxCostUsd: defined(settings.max_cost_usd),
    minRunUsd: defined(settings.min_run_usd),
    quotaWaitMs: defined(settings.quota_wait_ms),
    ...(settings.cli ? { cli: settings.cli } : {}),
    ...(settings.sandbox !== null ? { sandbox: settings.sandbox } : {}),
    ...(input.approveAll === true ? { approveAll: true } : {}),
    onEvent: (input.onEvent ?? []).filter((c) => c.trim()),
    cliForModel,
    planCommandsTrusted: trust.planCommands,
    runDefaults: {
      // The repository's own code (role gates, templates, plugins) runs only when it is trusted, as for run.
      trustedRepo: trust.repository,
      allowHosts: settings.allow_hosts,
      passEnv: settings.pass_env,
      allowCommands: settings.allow_commands,
      ...processTuning(deps.env),
    },
  };
}
