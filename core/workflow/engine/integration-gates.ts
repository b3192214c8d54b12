/**
 * The workflow's gates, run on the integration branch after every integrated task, in a
 * detached worktree of ours at the new tip (never the user's checkout). The last run decides:
 * a failing gate makes the workflow `gaps`; a failure that a later task fixes is a notice.
 */
import { runProcess } from '../../process/run-process.ts';
import { notice, type Engine } from './context.ts';
import { detachedWorktreeAt } from './git-ops.ts';
import { gatesWorktree } from './names.ts';
import { setUpGatesWorktree, slotExclude } from './slot-setup.ts';

const GATE_TIMEOUT_MS = 10 * 60 * 1000;
const GATE_OUTPUT_BYTES = 256 * 1024;

export async function runGatesOnIntegration(engine: Engine, tip: string): Promise<void> {
  const gates = engine.workflow.gates;
  if (!gates.length) return;
  const cwd = gatesWorktree(engine.paths);
  const made = await detachedWorktreeAt(engine.ops, cwd, tip, slotExclude(engine, cwd));
  const setup = await setUpGatesWorktree(engine, cwd, made);
  if (setup === 'halted') return;
  if (setup) {
    engine.gates = { passed: false, failed: `set-up: ${setup.split('\n')[0]}` };
    notice(engine, `the workflow gates' worktree could not be set up: ${setup}`);
    return;
  }
  const env = { ...engine.options.env, SUPERVISOR_WORKFLOW_ID: engine.workflow.id, SUPERVISOR_ROLE: 'workflow-gate' };
  for (const command of gates) {
    const proc = await runProcess({
      bin: '/bin/sh',
      args: ['-c', command],
      cwd,
      env,
      timeoutMs: GATE_TIMEOUT_MS,
      maxOutputBytes: GATE_OUTPUT_BYTES,
      ...(engine.options.signal ? { signal: engine.options.signal } : {}),
    });
    if (proc.interrupted) return;
    const passed = proc.exitCode === 0 && !proc.timedOut;
    engine.store.event('gates', { tip, command, passed, exit_code: proc.exitCode, ...(passed ? {} : { output_tail: `${proc.stdout}${proc.stderr}`.slice(-2000) }) });
    if (!passed) {
      engine.gates = { passed: false, failed: command };
      notice(engine, `workflow gate \`${command}\` failed on ${engine.integration} at ${tip.slice(0, 7)} (${proc.timedOut ? 'timed out' : `exit ${proc.exitCode}`})`);
      return;
    }
  }
  engine.gates = { passed: true, failed: null };
}
