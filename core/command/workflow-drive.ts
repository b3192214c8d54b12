/**
 * What `workflow run` and `workflow resume` share: their options, turning them into engine
 * options, Ctrl-C (ends every run's process tree, records `interrupted`, exit 130), progress
 * on stderr, and printing the result on stdout.
 */
import type { Argv } from 'yargs';
import { errors } from '../errors.ts';
import type { Workflow } from '../plugin-api/workflow-model.ts';
import type { CliChoice, WorkflowRunOptions } from '../workflow/engine/context.ts';
import type { WorkflowResult } from '../workflow/engine/result.ts';
import type { Args } from './command.ts';
import type { CliContext } from './context.ts';
import { nameOption } from './name-option.ts';
import { numberOption, positive } from './numbers.ts';
import { checkEnvNames } from '../sandbox/env-allowlist.ts';
import { suggest } from '../text/suggest.ts';
import { nameList } from '../text/name-list.ts';

export function driveOptions(y: Argv): Argv {
  return numberOption(
    numberOption(numberOption(y, 'jobs', "Tasks at once (default: the plan's, else 2)"), 'max-cost-usd', 'Stop starting runs once the summed cost reaches this (resumable with a higher one)'),
    'max-rounds',
    "Worker rounds per task at most (overrides the plan's max_rounds)",
  )
    .option('cli', { type: 'string', array: true, default: [] as string[], describe: 'Adapter for every role (NAME), or for one role (ROLE=NAME); repeatable' })
    .option('min-run-usd', { type: 'number', describe: 'No run starts when what is left of the cost ceiling is below this (default 0.01)' })
    .option('quota-wait', { type: 'string', describe: 'How long a quota or rate limit may pause the workflow (90s, 5m; default 5m) before it ends stopped, resumable' })
    .option('sandbox', { type: 'string', describe: "Sandbox every run's CLI and gates run in: none, bwrap, docker, podman or a plugin's (as run --sandbox)" })
    .option('allow-host', { type: 'string', array: true, default: [] as string[], describe: 'A host:port every sandboxed CLI may reach, besides its model API (repeatable; as run --allow-host)' })
    .option('pass-env', { type: 'string', array: true, default: [] as string[], describe: 'A variable of yours every sandboxed CLI and gate may see (repeatable; as run --pass-env)' })
    .option('allow-command', { type: 'string', array: true, default: [] as string[], describe: 'A command every run\'s CLI may run, e.g. "npm test" (repeatable; as run --allow-command; "*": any, only with a sandbox)' })
    .option('on-event', { type: 'string', array: true, default: [] as string[], describe: 'A shell command run (in the repository root) for every workflow event: the event as one JSON line on stdin, SUPERVISOR_EVENT=<kind> (repeatable)' })
    .option('approve-all', { type: 'boolean', default: false, describe: 'Approve every task that waits for approval as it arrives (for scripts; recorded as your decision)' });
}

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

/** `--quota-wait 90s`: a duration, else a usage error. */
async function quotaWait(args: Args): Promise<number | undefined> {
  const value = args['quota-wait'];
  if (value === undefined) return undefined;
  const { parseDuration } = await import('../workflow/engine/quota.ts');
  const ms = parseDuration(String(value));
  if (ms === null) throw errors.usage(`--quota-wait ${String(value)}: give a duration such as 90s, 5m or 1h`);
  return ms;
}

/**
 * `--cli ROLE=NAME` must name a role some task of the plan runs: a misspelt role would
 * otherwise be ignored and every run would use the role's own CLI.
 */
export function checkCliRoles(choice: CliChoice | undefined, workflow: Workflow): void {
  const roles = [...new Set(workflow.tasks.flatMap((t) => [t.worker, ...t.reviewers]))];
  for (const [role, name] of Object.entries(choice?.byRole ?? {})) {
    if (!roles.includes(role)) throw errors.usage(`--cli ${role}=${name}: no task of this plan runs a role named "${role}"${suggest(role, roles)}`, `Roles this plan runs: ${nameList(roles, 10)}. Give --cli NAME for every role.`);
  }
}

/** Checks adapter names early: a typo is a usage error before anything runs. */
export async function engineOptions(args: Args, ctx: CliContext): Promise<Omit<WorkflowRunOptions, 'workflow'>> {
  const registry = await ctx.registry();
  const cli = cliChoice((args.cli as string[]).map(String));
  for (const name of [cli?.all, ...Object.values(cli?.byRole ?? {})]) if (name) registry.get('adapter', name);
  const graceMs = Number(ctx.deps.env.SUPERVISOR_KILL_GRACE_MS);
  const backoffMs = Number(ctx.deps.env.SUPERVISOR_RETRY_BACKOFF_MS);
  const { cliForModel } = await import('../workflow/model-cli.ts');
  return {
    repoRoot: ctx.repoRoot,
    homeDir: ctx.deps.homeDir,
    env: ctx.deps.env,
    registry,
    jobs: positive(args, 'jobs', { integer: true, max: 64 }),
    maxRounds: positive(args, 'max-rounds', { integer: true, max: 50 }),
    maxCostUsd: positive(args, 'max-cost-usd'),
    minRunUsd: positive(args, 'min-run-usd'),
    quotaWaitMs: await quotaWait(args),
    ...(cli ? { cli } : {}),
    ...(args.sandbox !== undefined ? { sandbox: nameOption(args, 'sandbox', "a sandbox name: none, bwrap, docker, podman or a plugin's")! } : {}),
    ...(args['approve-all'] === true ? { approveAll: true } : {}),
    onEvent: ((args['on-event'] as string[] | undefined) ?? []).map(String).filter((c) => c.trim()),
    cliForModel,
    runDefaults: {
      // The repository's own code (role gates, templates, plugins) runs only when it is trusted, as for run.
      trustedRepo: (await ctx.trust()).trusted,
      allowHosts: ((args['allow-host'] as string[] | undefined) ?? []).map(String),
      // Checked here: a bad name is a usage error before any task starts, not one per task.
      passEnv: checkEnvNames(((args['pass-env'] as string[] | undefined) ?? []).map(String), 'env'),
      allowCommands: ((args['allow-command'] as string[] | undefined) ?? []).map(String),
      ...(Number.isFinite(graceMs) && ctx.deps.env.SUPERVISOR_KILL_GRACE_MS ? { graceMs } : {}),
      ...(Number.isFinite(backoffMs) && ctx.deps.env.SUPERVISOR_RETRY_BACKOFF_MS ? { backoffMs } : {}),
    },
  };
}

/** Runs the engine with Ctrl-C and progress wired, prints the result, returns the exit code. */
export async function driveWorkflow(ctx: CliContext, taskIds: string[], start: (extra: Pick<WorkflowRunOptions, 'signal' | 'onProgress' | 'onNotice'>) => Promise<WorkflowResult>): Promise<number> {
  const { createProgressView } = await import('../workflow/engine/progress.ts');
  const view = createProgressView((text) => void ctx.deps.stderr.write(text), ctx.deps.stderr.isTTY === true, taskIds);
  const controller = new AbortController();
  // The handler may be told which signal stopped us (SIGINT, SIGHUP, SIGTERM): the reason sets the exit code.
  const onStop = (signal?: unknown) => {
    if (!controller.signal.aborted) ctx.warn(`interrupt${typeof signal === 'string' ? ` (${signal})` : ''}: ending every run and recording the workflow as interrupted (resumable)`);
    controller.abort(typeof signal === 'string' ? signal : 'SIGINT');
  };
  const stopListening = ctx.deps.onInterrupt(onStop);
  const { createNoticeOnce } = await import('./notice-once.ts');
  const notices = createNoticeOnce((message) => view.note(`notice: ${message}`));
  let result: WorkflowResult;
  try {
    result = await start({ signal: controller.signal, onProgress: (event) => view.update(event), onNotice: (message) => notices.note(message) });
  } finally {
    view.stop();
    stopListening();
    for (const line of notices.summary()) ctx.warn(line);
  }
  const { renderWorkflowResult } = await import('../workflow/engine/render.ts');
  // Model and plan text (issues, titles) reach a terminal only through the sanitiser.
  if (ctx.options.json) ctx.out(JSON.stringify(result, null, 2));
  else ctx.show(renderWorkflowResult(result));
  return result.exit_code;
}

/**
 * `workflow resume` and what approve / reject do after recording their decision: the workflow
 * continues in this process, its result printed as `workflow run` prints it.
 */
export async function resumeById(ctx: CliContext, args: Args, id: string): Promise<number> {
  const options = await engineOptions(args, ctx);
  const { resumeWorkflow } = await import('../workflow/engine/run-workflow.ts');
  const { WorkflowStore } = await import('../workflow/engine/store.ts');
  const store = new WorkflowStore(ctx.repoRoot, id);
  const plan = store.exists() ? store.plan() : null;
  if (plan) checkCliRoles(options.cli, plan);
  const taskIds = plan ? plan.tasks.map((t) => t.id) : [];
  return driveWorkflow(ctx, taskIds, (extra) => resumeWorkflow(id, { ...options, ...extra }));
}
