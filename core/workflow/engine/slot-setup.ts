/**
 * Set-up in the workflow's worktree slots (core/run/setup.ts does the work): after a task's
 * slot is checked out and before its first run. A slot reused from task to task keeps what
 * set-up made there (`checkout -f` leaves untracked files), so the same set-up runs once per
 * slot unless the plan says `setup_once: false`. What set-up left stays out of every commit and
 * every clean-up of that slot (`slotExclude`).
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { locateWorktree, worktreeGit } from '../../git/bound-git.ts';
import { attemptSandbox, prepareSandbox } from '../../sandbox/runner.ts';
import { selfCommand } from '../../self-command.ts';
import { copyNotice, DEFAULT_SETUP_TIMEOUT_S, hasSetup, setUpWorktree, setupFailureIssue, type SetupSpec } from '../../run/setup.ts';
import { DEFAULT_GRACE_MS, runProcess } from '../../process/run-process.ts';
import { notice, setState, type Engine, type TaskRecord } from './context.ts';
import { slotOf } from './slots.ts';

interface SlotSetup {
  /** The set-up that ran there (commands and copies). */
  key: string;
  /** What it left: never committed, never cleaned. */
  exclude: string[];
}

const bySlot = new WeakMap<Engine, Map<string, SlotSetup>>();

function slotsOf(engine: Engine): Map<string, SlotSetup> {
  let slots = bySlot.get(engine);
  if (!slots) bySlot.set(engine, (slots = new Map()));
  return slots;
}

/** What set-up left in the slot at `worktree` (empty when none ran there). */
export function slotExclude(engine: Engine, worktree: string): string[] {
  return slotsOf(engine).get(worktree)?.exclude ?? [];
}

function specOf(engine: Engine, own: { setup?: string[]; copy?: string[] }): SetupSpec {
  const seconds = engine.workflow.setup_timeout ?? DEFAULT_SETUP_TIMEOUT_S;
  return { commands: own.setup ?? [], copy: own.copy ?? [], timeoutMs: Math.round(seconds * 1000) };
}

/**
 * How set-up's commands are spawned: under the workflow's sandbox (`--sandbox`) when it has one,
 * as the runs' CLIs are, with the role-independent policy of the sandbox choice (its network,
 * `--allow-host`, `--pass-env`): a package install needs its registry allowed. Without a
 * sandbox, directly.
 */
function setupSpawner(engine: Engine, worktree: string, env: Record<string, string | undefined>, who: { task: string }): typeof runProcess {
  const flag = engine.options.sandbox;
  if (flag === undefined || flag === 'none') return runProcess;
  const { runDefaults, registry, repoRoot, homeDir } = engine.options;
  const sandbox = prepareSandbox(registry, { flag, allowHosts: runDefaults?.allowHosts ?? [], passEnv: runDefaults?.passEnv ?? [] }, { repoRoot, homeDir: env.HOME || homeDir });
  const scratchDir = join(engine.store.dir, 'setup', basename(worktree));
  mkdirSync(scratchDir, { recursive: true });
  return attemptSandbox({
    sandbox,
    access: undefined,
    env,
    self: runDefaults?.peers?.self ?? selfCommand(),
    notice: (message) => notice(engine, `${who.task}: set-up: ${message}`),
    event: (type, data) => engine.store.event('setup', { task: who.task, step: type, path: worktree, ...data }),
    cwd: worktree,
    ...worktreeGit(slotOf(engine.ops, worktree)?.git),
    scratchDir,
    id: `${engine.workflow.id}-setup-${basename(worktree)}`,
    runProcess,
  }).cli;
}

type Outcome = { ok: true; copied: string | null } | { ok: false; issue: string | 'halted' };

/** Runs `spec` in `worktree` unless the same set-up already ran there (setup_once); `fresh`: the folder was just made. */
async function setUp(engine: Engine, worktree: string, spec: SetupSpec, fresh: boolean, who: { task: string; role: string }): Promise<Outcome> {
  const slots = slotsOf(engine);
  if (fresh) slots.delete(worktree);
  if (!hasSetup(spec)) return { ok: true, copied: null };
  const key = JSON.stringify([spec.commands, spec.copy]);
  if (engine.workflow.setup_once !== false && slots.get(worktree)?.key === key) return { ok: true, copied: null };
  // The slot's git as recorded when it was made (a CLI may have rewritten its .git since).
  const bound = slotOf(engine.ops, worktree)?.git ?? (await locateWorktree(engine.options.repoRoot, worktree, engine.ops.env));
  const env = { ...engine.options.env, SUPERVISOR_WORKFLOW_ID: engine.workflow.id, SUPERVISOR_TASK_ID: who.task, SUPERVISOR_ROLE: who.role };
  const result = await setUpWorktree({
    spec,
    worktree: bound,
    repoRoot: engine.options.repoRoot,
    env,
    graceMs: engine.options.runDefaults?.graceMs ?? DEFAULT_GRACE_MS,
    ...(engine.options.signal ? { signal: engine.options.signal } : {}),
    runProcess: setupSpawner(engine, worktree, env, who),
    onStep: ({ kind, ...step }) => engine.store.event('setup', { task: who.task, step: kind, path: worktree, ...step, ...('output' in step ? { output: step.output.slice(-8000) } : {}) }),
  });
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
  const outcome = await setUp(engine, worktree, spec, created, { task: record.task.id, role: 'set-up' });
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
