/**
 * What `workflow export` decides for every job of a pipeline besides the plan: the drive flags
 * (the recorded settings export was given, as argv words), each job's time limit from the plan
 * and its roles, and what a runner needs (the CLIs' programs, their keys' variable names).
 */
import type { Registry } from '../registry.ts';
import type { Workflow, WorkflowTask } from '../plugin-api/workflow-model.ts';
import type { Role } from '../roles/role.ts';
import type { PipelineSpec } from '../workflow/export/pipeline-jobs.ts';
import type { WorkflowSettings } from './settings.ts';
import type { DriveInput } from './workflow-options.ts';

/** The settings as the flags of `workflow task`, in a fixed order (same settings, same words). */
export function settingsFlags(settings: WorkflowSettings, input: Pick<DriveInput, 'approveAll' | 'onEvent'>, trust: boolean): string[] {
  const words: string[] = [];
  const each = (flag: string, values: string[]) => values.forEach((value) => words.push(flag, value));
  if (settings.sandbox !== null) words.push('--sandbox', settings.sandbox);
  if (settings.cli?.all !== undefined) words.push('--cli', settings.cli.all);
  for (const role of Object.keys(settings.cli?.byRole ?? {}).sort()) words.push('--cli', `${role}=${settings.cli!.byRole[role]}`);
  each('--allow-command', settings.allow_commands);
  each('--allow-host', settings.allow_hosts);
  each('--pass-env', settings.pass_env);
  if (settings.max_cost_usd !== null) words.push('--max-cost-usd', String(settings.max_cost_usd));
  if (settings.min_run_usd !== null) words.push('--min-run-usd', String(settings.min_run_usd));
  if (settings.max_rounds !== null) words.push('--max-rounds', String(settings.max_rounds));
  if (settings.quota_wait_ms !== null) words.push('--quota-wait', `${Math.ceil(settings.quota_wait_ms / 1000)}s`);
  if (input.approveAll === true) words.push('--approve-all');
  each('--on-event', (input.onEvent ?? []).filter((c) => c.trim()));
  if (trust) words.push('--trust');
  return words;
}

/** Defaults of the engine the limits are made of (seconds). */
export interface LimitDefaults {
  roleTimeout: number;
  roleGateTimeout: number;
  setupTimeout: number;
  workflowGateTimeout: number;
}

/** Git, fetches and compare-and-swap retries of one job, besides its runs (seconds). */
const JOB_OVERHEAD_S = 300;

const seconds = (value: unknown, fallback: number) => (typeof value === 'number' && value > 0 ? value : fallback);

/** One round's worst case: each role's CLI time limit and its gates, once (a retry is the exception: re-run the job). */
function roundSeconds(task: WorkflowTask, roles: Map<string, Role>, d: LimitDefaults): number {
  return [task.worker, ...task.reviewers].reduce((sum, name) => {
    const role = roles.get(name);
    const gates = (role?.gates.length ?? 0) + (name === task.worker ? task.gates.length : 0);
    return sum + seconds(role?.config.timeout, d.roleTimeout) + gates * seconds(role?.config.gate_timeout, d.roleGateTimeout);
  }, 0);
}

function setupSeconds(workflow: Workflow, task: WorkflowTask | null, d: LimitDefaults): number {
  const commands = task ? (task.setup ?? workflow.defaults.setup ?? []) : (workflow.defaults.setup ?? []);
  return commands.length * (workflow.setup_timeout ?? d.setupTimeout);
}

/** Minutes, rounded up: each task's set-up, rounds and integration gates; the final job's set-up and gates. */
export function jobTimeouts(workflow: Workflow, roles: Map<string, Role>, maxRounds: number | null, d: LimitDefaults): PipelineSpec['timeouts'] {
  const gates = workflow.gates.length * d.workflowGateTimeout;
  const minutes = (s: number) => Math.ceil(s / 60);
  const tasks: Record<string, number> = {};
  for (const task of workflow.tasks) {
    const rounds = maxRounds ?? task.max_rounds;
    const integration = workflow.gates_on === 'merge' ? gates : 0;
    tasks[task.id] = minutes(setupSeconds(workflow, task, d) + rounds * roundSeconds(task, roles, d) + integration + JOB_OVERHEAD_S);
  }
  return { tasks, final: minutes(setupSeconds(workflow, null, d) + gates + JOB_OVERHEAD_S) };
}

/** The adapters the plan's runs use: `cli` per run, else the role's own. */
export function adaptersUsed(workflow: Workflow, roles: Map<string, Role>, cliOf: (task: WorkflowTask, role: string) => string | undefined): string[] {
  const names = new Set<string>();
  for (const task of workflow.tasks) {
    for (const role of [task.worker, ...task.reviewers]) {
      const name = cliOf(task, role) ?? roles.get(role)?.cli;
      if (name) names.add(name);
    }
  }
  return [...names].sort();
}

/**
 * The runner's needs: each adapter's program (the replay adapter's is supervisor itself) and its
 * declared key variables, and the variables passed on (--pass-env; a prefix `NAME_*` names no
 * one secret: listed in `prefixes` for the caller to say so).
 */
export function runnerNeeds(adapters: string[], registry: Registry, passEnv: string[]): PipelineSpec['runner'] & { prefixes: string[] } {
  const clis = new Set<string>();
  const keys = new Set<string>();
  for (const name of adapters) {
    const adapter = registry.get('adapter', name);
    if (adapter.bin && adapter.bin !== 'supervisor') clis.add(adapter.bin);
    for (const key of adapter.access?.secrets ?? []) keys.add(key);
  }
  const passed = [...new Set(passEnv.filter((n) => !n.endsWith('*')))].sort();
  const secrets = [...new Set([...[...keys].sort(), ...passed])];
  return { clis: [...clis].sort(), secrets, finalSecrets: passed, prefixes: passEnv.filter((n) => n.endsWith('*')) };
}
