/**
 * The one executor for commands a repository or a CLI could have written: a run's gates and
 * set-up, a workflow's gates (merge-queue candidates, `gates_on: end`, the final gates) and its
 * slots' set-up. Each command runs through the shell inside the sandbox the user chose (through
 * the plugin's `wrap`, with the environment allowlist), starts in a tracking cgroup, and `close`
 * ends whatever is left of it, so no daemon outlives its gates or set-up.
 */
import { worktreeTouched } from '../git/verified-worktree.ts';
import type { SandboxPolicy, WorktreeGit } from '../plugin-api/contracts.ts';
import { findRunCgroup, runCgroup } from '../process/cgroup.ts';
import { endProcesses, type EndedProcesses } from '../process/end-processes.ts';
import { DEFAULT_GRACE_MS, runProcess as spawnProcess, type RunProcessOptions, type RunProcessResult } from '../process/run-process.ts';
import { runShell } from '../process/shell-command.ts';
import { processesTaggedWith } from '../process/tagged-processes.ts';
import { formatHostPort } from './host-port.ts';
import { cliPolicy, DEFAULT_SANDBOX, gatePolicy } from './policy.ts';
import { sandboxContext, sandboxedRunner, type PreparedSandbox } from './runner.ts';

/** The variable that tags a run's processes (a run's id); the executor's own ids are tracked by cgroup. */
const RUN_TAG = 'SUPERVISOR_RUN_ID';

/** The tracking cgroup's name for a run or an executor id (core/run/run-processes.ts uses the same). */
export function trackingGroupName(id: string): string {
  return `supervisor-run-${id.replace(/[^a-zA-Z0-9_.-]/g, '-')}`;
}

export interface ConfinedInput {
  /** The sandbox the user chose (flag, role or plan): `none` runs on the host, as the user asked. */
  sandbox: PreparedSandbox;
  /** `gate`: the gate network (none unless the role says), no CLI configuration; `setup`: the role's network (a package install). */
  purpose: 'gate' | 'setup';
  /** The caller's environment; under a sandbox only its allowlisted part reaches the command. */
  env: Record<string, string | undefined>;
  self: { bin: string; args: string[] };
  notice(message: string): void;
  /** A refused connection, for the caller's log. */
  onRefused?(target: string): void;
  /** The worktree the commands run in, and its git folders as recorded when it was made. */
  cwd: string;
  git?: WorktreeGit;
  /** A folder of ours the sandbox may show writable (the plugin's scratch). */
  scratchDir: string;
  /** Unique per executor (container and cgroup names). */
  id: string;
  /** The cgroup (by id) every command starts in and `close` empties: the run's id, else `id`. */
  trackingId?: string;
  /** Spawns the (wrapped) command; default core/process/run-process.ts. */
  runProcess?(options: RunProcessOptions): Promise<RunProcessResult>;
}

export interface ShellRun {
  timeoutMs: number;
  graceMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
}

export interface ConfinedExecutor {
  /** Runs one shell command line in the worktree, inside the sandbox. */
  run(command: string, options: ShellRun): Promise<RunProcessResult>;
  /** The same as a spawner (for setUpWorktree and runGates): every process goes through the sandbox. */
  spawn(options: RunProcessOptions): Promise<RunProcessResult>;
  /** Ends every process the commands left (TERM, then KILL after graceMs) and removes the tracking cgroup. */
  close(graceMs?: number): Promise<EndedProcesses>;
  /** host:port entries the sandbox refused so far. */
  refused: string[];
}

/** The policy of the command's purpose: a gate gets no CLI configuration and the gate network. */
function policyFor(input: ConfinedInput): SandboxPolicy {
  const { choice, homeDir } = input.sandbox;
  return input.purpose === 'gate' ? gatePolicy(choice) : cliPolicy(choice, undefined, input.env, homeDir);
}

export function confinedExecutor(input: ConfinedInput): ConfinedExecutor {
  const refused: string[] = [];
  const spawn = input.runProcess ?? spawnProcess;
  const trackingId = input.trackingId ?? input.id;
  const ctx = sandboxContext({
    env: input.env,
    self: input.self,
    notice: input.notice,
    onRefused: (target) => {
      const entry = formatHostPort(target);
      refused.push(entry);
      input.onRefused?.(entry);
    },
  });
  // SECURITY I2: every command of a repository's or a CLI's goes through the chosen sandbox's wrap (the allowlisted environment included).
  const wrapped = sandboxedRunner({
    sandbox: input.sandbox,
    ctx,
    purpose: input.purpose === 'gate' ? 'gate' : 'cli',
    policy: policyFor(input),
    scratchDir: input.scratchDir,
    repoRoot: input.sandbox.repoRoot,
    homeDir: input.sandbox.homeDir,
    id: input.id,
    ...(input.git ? { git: input.git } : {}),
    runProcess: spawn,
  });
  const through = input.sandbox.choice.name === DEFAULT_SANDBOX ? spawn : wrapped;
  const confinedSpawn = (options: RunProcessOptions) => {
    // SECURITY I3: a command may rewrite the worktree's git links, so every earlier check of it is stale.
    worktreeTouched(options.cwd);
    // SECURITY I2: every process starts in the tracking cgroup, which close() empties: nothing outlives the commands.
    return through({ ...options, cgroupPrefix: options.cgroupPrefix ?? runCgroup(trackingGroupName(trackingId))?.prefix ?? [] });
  };
  return {
    refused,
    spawn: confinedSpawn,
    run: (command, options) => runShell(confinedSpawn, command, { ...options, cwd: input.cwd, env: input.env, graceMs: options.graceMs ?? DEFAULT_GRACE_MS }),
    close: (graceMs = DEFAULT_GRACE_MS) => endTracked(trackingId, graceMs),
  };
}

/** Ends the processes in the tracking cgroup (and, for a run's id, those tagged with it) and removes the group. */
export async function endTracked(trackingId: string, graceMs: number): Promise<EndedProcesses> {
  const cgroup = findRunCgroup(trackingGroupName(trackingId));
  const targets = [...new Set([...(cgroup?.pids() ?? []), ...processesTaggedWith(RUN_TAG, trackingId)])];
  const ended = await endProcesses(targets, graceMs);
  await cgroup?.remove();
  return ended;
}
