/**
 * Set-up in the workflow's worktree slots (core/run/setup.ts does the work): after a task's
 * slot is checked out and before its first run. A slot reused from task to task keeps what
 * set-up made there (`checkout -f` leaves untracked files), so the same set-up runs once per
 * slot unless the plan says `setup_once: false`. What set-up left stays out of every commit and
 * every clean-up of that slot (`slotExclude`).
 */
import { basename } from 'node:path';
import { boundGit, locateWorktree } from '../../git/bound-git.ts';
import { copyNotice, DEFAULT_SETUP_TIMEOUT_S, hasSetup, setUpWorktree, setupFailureIssue, type SetupSpec } from '../../run/setup.ts';
import { DEFAULT_GRACE_MS } from '../../process/run-process.ts';
import type { WorkflowTask } from '../../plugin-api/workflow-model.ts';
import { workflowCommands } from './confined-commands.ts';
import { notice, setState, type Engine, type TaskRecord } from './context.ts';
import { slotOf } from './slots.ts';

/** What set-up left in the slot at `worktree` (empty when none ran there). */
export function slotExclude(engine: Engine, worktree: string): string[] {
  return engine.ops.slots.setups.get(worktree)?.exclude ?? [];
}

function specOf(engine: Engine, own: { setup?: string[]; copy?: string[] }): SetupSpec {
  const seconds = engine.workflow.setup_timeout ?? DEFAULT_SETUP_TIMEOUT_S;
  return { commands: own.setup ?? [], copy: own.copy ?? [], timeoutMs: Math.round(seconds * 1000) };
}

/** Files set-up reads that decide what it makes: the lock files at the top of the checkout. */
const LOCK_FILES = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb', 'Cargo.lock', 'go.sum', 'poetry.lock', 'uv.lock', 'Pipfile.lock', 'Gemfile.lock', 'composer.lock'];

/**
 * What set-up in the slot is keyed by: its commands and copies, and the lock files of the
 * commit the slot has checked out (their blob ids, through the slot's recorded git): the same
 * key in a slot means set-up has nothing new to make there.
 */
async function setupKey(engine: Engine, worktree: string, spec: SetupSpec): Promise<string> {
  const slot = slotOf(engine.ops.slots, worktree);
  const locks = slot && spec.commands.length ? await boundGit(slot.git, engine.ops.env).run(['ls-tree', 'HEAD', '--', ...LOCK_FILES]) : null;
  return JSON.stringify([spec.commands, spec.copy, locks?.ok ? locks.stdout : '']);
}

type Outcome = { ok: true; copied: string | null } | { ok: false; issue: string | 'halted' };

/** Runs `spec` in `worktree` unless the same set-up already ran there (setup_once); `fresh`: the folder was just made. */
async function setUp(engine: Engine, worktree: string, spec: SetupSpec, fresh: boolean, who: { task: string; role: string; record?: WorkflowTask }): Promise<Outcome> {
  const slots = engine.ops.slots.setups;
  if (fresh) slots.delete(worktree);
  if (!hasSetup(spec)) return { ok: true, copied: null };
  const key = await setupKey(engine, worktree, spec);
  if (engine.workflow.setup_once !== false && slots.get(worktree)?.key === key) return { ok: true, copied: null };
  // The slot's git as recorded when it was made (a CLI may have rewritten its .git since).
  const bound = slotOf(engine.ops.slots, worktree)?.git ?? (await locateWorktree(engine.options.repoRoot, worktree, engine.ops.env));
  const env = { ...engine.options.env, SUPERVISOR_WORKFLOW_ID: engine.workflow.id, SUPERVISOR_WORKFLOW_DIR: engine.store.dir, SUPERVISOR_TASK_ID: who.task, SUPERVISOR_ROLE: who.role };
  const graceMs = engine.options.runDefaults?.graceMs ?? DEFAULT_GRACE_MS;
  // SECURITY I2: set-up runs what earlier workers committed: in the workflow's sandbox (flag, else the roles'), and nothing it starts outlives it.
  const executor = await workflowCommands(engine, { purpose: 'setup', cwd: worktree, env, id: `setup-${basename(worktree)}`, ...(who.record ? { task: who.record } : {}), who: `${who.task}: set-up` });
  const result = await setUpWorktree({
    spec,
    worktree: bound,
    repoRoot: engine.options.repoRoot,
    env,
    graceMs,
    ...(engine.options.signal ? { signal: engine.options.signal } : {}),
    runProcess: executor.spawn,
    onStep: ({ kind, ...step }) => engine.store.append('setup', { task: who.task, step: kind, path: worktree, ...step, ...('output' in step ? { output: step.output.slice(-8000) } : {}) }),
  }).finally(() => executor.close(graceMs));
  if (!result.ok) {
    slots.delete(worktree);
    return { ok: false, issue: result.interrupted ? 'halted' : setupFailureIssue(result) };
  }
  slots.set(worktree, { key, exclude: result.excludePaths });
  return { ok: true, copied: copyNotice(result.copied, result.missing) };
}

/** Whether the task's slot gets set-up commands or copies (they may change what is checked out). */
export function slotHasSetup(engine: Engine, task: { setup?: string[]; copy?: string[] }): boolean {
  return hasSetup(specOf(engine, task));
}

/**
 * Sets up the task's slot (`created`: it was just made). Returns the issue that ends the task
 * `error` when a command fails, 'halted' when interrupted, else null.
 */
export async function setUpSlot(engine: Engine, record: TaskRecord, worktree: string, created: boolean): Promise<string | 'halted' | null> {
  const spec = specOf(engine, record.task);
  if (hasSetup(spec)) setState(engine, record, 'running', { role: 'set-up' });
  const outcome = await setUp(engine, worktree, spec, created, { task: record.task.id, role: 'set-up', record: record.task });
  if (!outcome.ok) return outcome.issue;
  if (outcome.copied) notice(engine, `${record.task.id}: ${outcome.copied}`);
  return null;
}

/**
 * The workflow's gates run in a worktree of their own at the integration tip: it gets the
 * workflow's default set-up (`defaults.setup`, `defaults.copy`), once, so `gates: [npm test]`
 * finds what `npm ci` installed. Returns the issue when set-up failed, else null.
 */
export async function setUpGatesWorktree(engine: Engine, worktree: string, created: boolean): Promise<string | 'halted' | null> {
  const outcome = await setUp(engine, worktree, specOf(engine, engine.workflow.defaults), created, { task: '(workflow gates)', role: 'workflow-gate-setup' });
  return outcome.ok ? null : outcome.issue;
}
