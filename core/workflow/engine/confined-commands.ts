/**
 * The workflow's own commands (slot set-up, the workflow gates) run what workers wrote, so they
 * run through the one executor (core/sandbox/executor.ts) in the sandbox the user chose for the
 * workflow: `--sandbox` when given, else the one the plan's roles choose (a task's set-up: its
 * worker's first, then the plan's other roles in order), else none.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { roleLoadOptions } from '../../roles/load-options.ts';
import { loadRole } from '../../roles/load-role.ts';
import { confinedExecutor, type ConfinedExecutor } from '../../sandbox/executor.ts';
import { chooseSandbox, DEFAULT_SANDBOX } from '../../sandbox/policy.ts';
import { prepareSandbox, type PreparedSandbox } from '../../sandbox/runner.ts';
import { selfCommand } from '../../self-command.ts';
import type { WorkflowTask } from '../../plugin-api/workflow-model.ts';
import { notice, type Engine } from './context.ts';
import { slotOf } from './slots.ts';
import { worktreeGit } from '../../git/bound-git.ts';

/** Role names in the order their sandbox is considered: the task's worker, then every role of the plan. */
function rolesInOrder(engine: Engine, task: WorkflowTask | undefined): string[] {
  const names = [...(task ? [task.worker] : []), ...engine.workflow.tasks.flatMap((t) => [t.worker, ...t.reviewers])];
  return [...new Set(names)];
}

/** The first role's `sandbox` that names a sandbox other than none (undefined: no role chooses one). */
async function rolesSandbox(engine: Engine, task: WorkflowTask | undefined): Promise<unknown> {
  const { registry, repoRoot, homeDir, env } = engine.options;
  const options = roleLoadOptions(registry, { repoRoot, homeDir: env.HOME || homeDir });
  for (const name of rolesInOrder(engine, task)) {
    const role = await loadRole(name, options).catch(() => null);
    if (!role?.sandbox) continue;
    if (chooseSandbox({ role: role.sandbox }).name !== DEFAULT_SANDBOX) return role.sandbox;
  }
  return undefined;
}

/** SECURITY I2: the sandbox of the workflow's own commands is the one the user chose for its CLIs (flag, else the plan's roles). */
export async function workflowSandbox(engine: Engine, task?: WorkflowTask): Promise<PreparedSandbox> {
  const { registry, repoRoot, homeDir, env, runDefaults, sandbox: flag } = engine.options;
  const role = flag === undefined ? await rolesSandbox(engine, task) : undefined;
  return prepareSandbox(registry, { ...(role === undefined ? {} : { role }), ...(flag === undefined ? {} : { flag }), allowHosts: runDefaults?.allowHosts ?? [], passEnv: runDefaults?.passEnv ?? [] }, { repoRoot, homeDir: env.HOME || homeDir });
}

export interface WorkflowCommandsInput {
  purpose: 'gate' | 'setup';
  /** The worktree (a slot, or the gates' worktree) the commands run in. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** Unique among the workflow's executors (cgroup, scratch folder and container names). */
  id: string;
  task?: WorkflowTask;
  /** Where its notices and refused connections are attributed. */
  who: string;
}

/** An executor for a batch of the workflow's commands; `close` ends what they left and removes its scratch folder. */
export async function workflowCommands(engine: Engine, input: WorkflowCommandsInput): Promise<ConfinedExecutor> {
  const sandbox = await workflowSandbox(engine, input.task);
  // Unique per executor: closing it ends every process tracked under this id (another workflow of the same id, in another repository, keeps its own).
  const id = `${engine.workflow.id}-${input.id}-${randomBytes(4).toString('hex')}`.replace(/[^a-zA-Z0-9_.-]/g, '-');
  const scratchDir = join(engine.store.dir, 'sandbox', id);
  mkdirSync(scratchDir, { recursive: true });
  const executor = confinedExecutor({
    sandbox,
    purpose: input.purpose,
    env: input.env,
    self: engine.options.runDefaults?.peers?.self ?? selfCommand(),
    notice: (message) => notice(engine, `${input.who}: ${message}`),
    onRefused: (target) => notice(engine, `${input.who}: sandbox ${sandbox.choice.name} refused a connection to ${target}`),
    cwd: input.cwd,
    ...worktreeGit(slotOf(engine.ops.slots, input.cwd)?.git),
    scratchDir,
    id,
  });
  return {
    ...executor,
    close: async (graceMs) => {
      const ended = await executor.close(graceMs);
      rmSync(scratchDir, { recursive: true, force: true });
      return ended;
    },
  };
}
