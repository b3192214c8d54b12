/**
 * The workflow's gates, in a detached worktree of ours at a commit (never the user's checkout):
 * a task's candidate merge (the merge queue, `gates_on: merge`), or the integration branch's tip
 * after every integrated task and once more at the end (`gates_on: end`, and after a resume).
 * A workflow with gates is `pass` only when they passed on the final tip.
 */
import { DEFAULT_GRACE_MS } from '../../process/run-process.ts';
import type { ConfinedExecutor } from '../../sandbox/executor.ts';
import { workflowCommands } from './confined-commands.ts';
import { notice, type Engine } from './context.ts';
import { detachedWorktreeAt } from './git-ops.ts';
import { gatesWorktree } from './names.ts';
import { setUpGatesWorktree, slotExclude } from './slot-setup.ts';
import { failingLines } from '../../text/failing-lines.ts';

export const GATE_TIMEOUT_MS = 10 * 60 * 1000;
const GATE_OUTPUT_BYTES = 256 * 1024;
const OUTPUT_TAIL = 2000;

export type GatesVerdict = { passed: true } | { passed: false; command: string; exitCode: number | null; timedOut: boolean; output: string } | { passed: null };

/** Runs every gate at `commit` until one fails; `{ passed: null }` when interrupted. */
export async function runGatesAt(engine: Engine, commit: string, why: { task?: string; on: 'candidate' | 'integration' }): Promise<GatesVerdict> {
  const cwd = gatesWorktree(engine.paths);
  const made = await detachedWorktreeAt(engine.ops, cwd, commit, slotExclude(engine, cwd));
  const setup = await setUpGatesWorktree(engine, cwd, made);
  if (setup === 'halted') return { passed: null };
  if (setup) {
    notice(engine, `the workflow gates' worktree could not be set up: ${setup}`);
    engine.store.append('gates', { tip: commit, on: why.on, ...(why.task ? { task: why.task } : {}), command: `set-up: ${setup.split('\n')[0]}`, passed: false, exit_code: null, output_tail: failingLines(setup, OUTPUT_TAIL) });
    return { passed: false, command: `set-up: ${setup.split('\n')[0]}`, exitCode: null, timedOut: false, output: setup };
  }
  const env = { ...engine.options.env, SUPERVISOR_WORKFLOW_ID: engine.workflow.id, SUPERVISOR_WORKFLOW_DIR: engine.store.dir, SUPERVISOR_ROLE: 'workflow-gate' };
  engine.store.append('gates_started', { tip: commit, on: why.on, ...(why.task ? { task: why.task } : {}) });
  // SECURITY I2: the gates run what workers wrote: in the workflow's sandbox (flag, else the roles'), allowlisted environment, nothing outlives them.
  const executor = await workflowCommands(engine, { purpose: 'gate', cwd, env, id: `gates-${why.on}-${commit.slice(0, 12)}`, who: 'workflow gates' });
  try {
    return await gateEach(engine, executor, commit, why);
  } finally {
    await executor.close(engine.options.runDefaults?.graceMs ?? DEFAULT_GRACE_MS);
  }
}

async function gateEach(engine: Engine, executor: ConfinedExecutor, commit: string, why: { task?: string; on: 'candidate' | 'integration' }): Promise<GatesVerdict> {
  for (const command of engine.workflow.gates) {
    const proc = await executor.run(command, {
      timeoutMs: GATE_TIMEOUT_MS,
      maxOutputBytes: GATE_OUTPUT_BYTES,
      ...(engine.options.signal ? { signal: engine.options.signal } : {}),
    });
    if (proc.interrupted) return { passed: null };
    const passed = proc.exitCode === 0 && !proc.timedOut;
    const output = failingLines(`${proc.stdout}${proc.stderr}`, OUTPUT_TAIL);
    engine.store.append('gates', { tip: commit, on: why.on, ...(why.task ? { task: why.task } : {}), command, passed, exit_code: proc.exitCode, ...(passed ? {} : { output_tail: output }) });
    if (!passed) return { passed: false, command, exitCode: proc.exitCode, timedOut: proc.timedOut, output };
  }
  engine.store.append('gates_passed', { tip: commit, on: why.on, ...(why.task ? { task: why.task } : {}) });
  return { passed: true };
}

/** The gates on the integration branch at `tip`; the last run decides the workflow's gates. */
export async function runGatesOnIntegration(engine: Engine, tip: string): Promise<void> {
  if (!engine.workflow.gates.length) return;
  const verdict = await runGatesAt(engine, tip, { on: 'integration' });
  if (verdict.passed === null) return;
  // The verdict is the record's (gates_passed, gates): state.ts keeps the last one.
  if (verdict.passed) return;
  notice(engine, `workflow gate \`${verdict.command}\` failed on ${engine.integration} at ${tip.slice(0, 7)} (${verdict.timedOut ? 'timed out' : `exit ${verdict.exitCode}`})`);
}
