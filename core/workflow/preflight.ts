/**
 * The checks a workflow passes before it spends anything (`workflow check`, `workflow run`,
 * `--dry-run`): every run the plan will make is resolved to its role, CLI and model; each role
 * and its output schema load, each CLI is installed and runnable, each sandbox is available,
 * and "any command" is allowed only inside a sandbox. Every problem is collected and named by
 * task, role and CLI; nothing is started but the CLIs' own version checks.
 */
import { isSupervisorError } from '../errors.ts';
import { resolveOutputSchema } from '../output/schemas.ts';
import type { AdapterAvailability } from '../plugin-api/contracts.ts';
import { adapterInstalled } from '../plugins/adapter-installed.ts';
import type { Registry } from '../registry.ts';
import { roleLoadOptions } from '../roles/load-options.ts';
import { loadRole } from '../roles/load-role.ts';
import type { Role } from '../roles/role.ts';
import { DEFAULT_SANDBOX } from '../sandbox/policy.ts';
import { checkSandbox, prepareSandbox, sandboxContext } from '../sandbox/runner.ts';
import { selfCommand } from '../self-command.ts';
import { preflightErrors, type PreflightProblem } from './preflight-errors.ts';
import { plannedCli, plannedModel, type CliRouting } from './run-plan.ts';
import type { Workflow } from '../plugin-api/workflow-model.ts';

/** One run the plan will make, resolved. */
export interface PlannedRun {
  task: string;
  role: string;
  /** The adapter that runs it; null when the role does not load. */
  cli: string | null;
  /** The model handed to the CLI (the plan's, else the role's x-model); null: the CLI's default. */
  model: string | null;
}

export interface PreflightOptions extends CliRouting {
  workflow: Workflow;
  registry: Registry;
  repoRoot: string;
  homeDir: string;
  env: Record<string, string | undefined>;
  /** The sandbox every run uses (--sandbox); else each role's own. */
  sandbox?: string;
  /** --allow-command values (every run). */
  allowCommands?: string[];
  /** The runs happen on other machines (an export's CI runners): CLIs and sandboxes are not looked for here. */
  elsewhere?: boolean;
}

/** Loads a role once per name: its result or the problem. */
function roleCache(options: PreflightOptions) {
  const cache = new Map<string, Promise<Role | Error>>();
  const roleOptions = roleLoadOptions(options.registry, options);
  return (name: string) => {
    let found = cache.get(name);
    if (!found) {
      found = loadRole(name, roleOptions).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      cache.set(name, found);
    }
    return found;
  };
}

/** Every run of every task (worker, then reviewers), with the role loaded. */
async function resolveRuns(options: PreflightOptions, load: ReturnType<typeof roleCache>): Promise<{ run: PlannedRun; role: Role | Error }[]> {
  const runs: { run: PlannedRun; role: Role | Error }[] = [];
  for (const task of options.workflow.tasks) {
    for (const name of [task.worker, ...task.reviewers]) {
      const role = await load(name);
      const loaded = role instanceof Error ? null : role;
      const cli = plannedCli(options, task, name) ?? loaded?.cli ?? null;
      const ownModel = loaded?.extensions['x-model'];
      const model = plannedModel(options.workflow, task) ?? (typeof ownModel === 'string' ? ownModel : null);
      runs.push({ run: { task: task.id, role: name, cli, model }, role });
    }
  }
  return runs;
}

/** The runs a plan will make, for --dry-run: nothing is checked beyond loading the roles. */
export async function planRuns(options: PreflightOptions): Promise<PlannedRun[]> {
  return (await resolveRuns(options, roleCache(options))).map(({ run }) => run);
}

function memo<T>(work: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, work(key));
    return cache.get(key)!;
  };
}

const messageOf = (error: unknown) => (isSupervisorError(error) ? `${error.message}${error.hint ? ` (${error.hint})` : ''}` : error instanceof Error ? error.message : String(error));

/** Checks every run; throws WORKFLOW_PREFLIGHT (exit 2) listing every problem, else returns the runs. */
export async function preflight(options: PreflightOptions): Promise<PlannedRun[]> {
  const resolved = await resolveRuns(options, roleCache(options));
  const installed = memo<AdapterAvailability | Error>(async (cli) => {
    try {
      return await adapterInstalled(options.registry.get('adapter', cli), { env: options.env, cwd: options.repoRoot });
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  });
  const sandboxReady = memo<string>(async (key) => {
    const role = JSON.parse(key) as Role['sandbox'];
    try {
      const sandbox = prepareSandbox(options.registry, { role: role ?? undefined, flag: options.sandbox }, { repoRoot: options.repoRoot, homeDir: options.env.HOME || options.homeDir });
      if (!options.elsewhere) await checkSandbox(sandbox, sandboxContext({ env: options.env, self: selfCommand(), notice: () => {} }));
      return sandbox.choice.name;
    } catch (error) {
      return `!${messageOf(error)}`;
    }
  });
  const problems: PreflightProblem[] = [];
  for (const { run, role } of resolved) {
    const problem = (message: string) => problems.push({ task: run.task, role: run.role, cli: run.cli, message });
    if (role instanceof Error) {
      problem(`the role does not load: ${messageOf(role)}`);
      continue;
    }
    try {
      resolveOutputSchema(role);
    } catch (error) {
      problem(`its output schema does not load: ${messageOf(error)}`);
    }
    const sandbox = await sandboxReady(JSON.stringify(role.sandbox));
    if (sandbox.startsWith('!')) problem(sandbox.slice(1));
    const anyCommand = [...role.allowed_commands, ...(options.allowCommands ?? [])].some((c) => c.trim() === '*');
    if (anyCommand && sandbox === DEFAULT_SANDBOX) problem('allowed_commands ["*"] (any command) needs a sandbox, and none is active (--sandbox bwrap, docker or podman)');
    if (run.cli === null || options.elsewhere) continue;
    const ready = await installed(run.cli);
    if (ready instanceof Error) problem(`the CLI ${run.cli} cannot be used: ${messageOf(ready)}`);
    else if (!ready.ok) problem(`the CLI ${run.cli} is not runnable here: ${ready.missing}; ${ready.hint}`);
  }
  if (problems.length) throw preflightErrors.failed(options.workflow.source.file, problems);
  return resolved.map(({ run }) => run);
}
