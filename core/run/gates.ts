/**
 * Gates: the role's check commands (and --gate), run one after another in the workspace
 * through the shell, each with its own timeout. The first failure stops the rest.
 */
import type { RunProcessOptions, RunProcessResult } from '../process/run-process.ts';
import { combinedOutput, runShell } from '../process/shell-command.ts';
import type { GateOutcome } from './feedback.ts';

export const DEFAULT_GATE_TIMEOUT_S = 300;
const GATE_OUTPUT_BYTES = 1024 * 1024;

export interface RunGatesOptions {
  gates: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  graceMs: number;
  signal?: AbortSignal;
  runProcess: (options: RunProcessOptions) => Promise<RunProcessResult>;
  /** Starts each gate in the run's cgroup (see RunProcessOptions.cgroupPrefix). */
  cgroupPrefix?: string[];
  /** Called after each gate (the run log records it). */
  onGate?: (outcome: GateOutcome & { passed: boolean }) => void;
}

export interface GatesResult {
  /** The failing gate, when one failed (null: all passed, or interrupted). */
  failed: GateOutcome | null;
  interrupted: boolean;
}

export async function runGates(options: RunGatesOptions): Promise<GatesResult> {
  for (const command of options.gates) {
    const { cwd, env, timeoutMs, graceMs, signal, cgroupPrefix } = options;
    const proc = await runShell(options.runProcess, command, { cwd, env, timeoutMs, graceMs, signal, cgroupPrefix, maxOutputBytes: GATE_OUTPUT_BYTES });
    if (proc.interrupted) return { failed: null, interrupted: true };
    const outcome = {
      command,
      exitCode: proc.exitCode,
      timedOut: proc.timedOut,
      output: combinedOutput(proc),
      durationMs: proc.durationMs,
      passed: proc.exitCode === 0 && !proc.timedOut,
    };
    options.onGate?.(outcome);
    if (!outcome.passed) return { failed: outcome, interrupted: false };
  }
  return { failed: null, interrupted: false };
}
