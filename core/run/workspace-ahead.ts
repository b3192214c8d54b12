/**
 * A run's worktree made while its prompt is packed: once the role is loaded and trusted (its
 * name names the run) and its sandbox can run here, `git worktree add`, the record of the
 * user's checkout and the standby that joins the run's cgroup for its CLI start beside packing
 * instead of after it, when the main thread is busy building the prompt and the other core is
 * free. A run placed early (--base, --review, a caller's worktree) has its own. Nothing is made
 * before a configuration error but the prompt's; a run that stops or fails before it takes the
 * worktree removes it, its standby and its cgroup (closeAhead).
 */
import { recordCheckout, type CheckoutState } from './checkout-guard.ts';
import type { RunRoleOptions } from './options.ts';
import type { EnginePeers } from './peers.ts';
import { newRunId } from './run-id.ts';
import { endRunProcesses, startRunStandby } from './run-processes.ts';
import { DEFAULT_GRACE_MS } from '../process/run-process.ts';
import { closeWorkspace, inPlaceReason, openWorkspace, type RepoState, type Workspace } from './worktree.ts';
import { statePaths } from '../state-dir.ts';
import { DEFAULT_SANDBOX } from '../sandbox/policy.ts';
import type { Role } from '../roles/role.ts';

/** What was opened ahead: the workspace (or why it could not be), and the checkout's record (null in place). */
export interface OpenedAhead {
  repo: RepoState;
  workspace: Workspace | null;
  failure: unknown;
  checkout: Promise<CheckoutState> | null;
}

/** The run's id and start, and what opening its workspace gives. */
export interface AheadStart {
  runId: string;
  startedAt: Date;
  opened: Promise<OpenedAhead>;
}

export interface WorkspaceAhead {
  /** prepareRun's onTrusted: the role is loaded and trusted, and its sandbox (named) can run here. */
  start(role: Role, peers: EnginePeers, sandbox: string): void;
  /** The run goes on with what was started (started now, if prepareRun did not), and nothing starts any more. */
  claim(role: Role, peers: EnginePeers): AheadStart;
  /** The run has its workspace now (its end keeps or removes it): closeAhead leaves it alone. */
  take(): void;
  /** The run ended before taking it: nothing more starts, and what was made is removed (its standby and cgroup too). */
  closeAhead(): Promise<void>;
}

/** `repo`: the repository's inspection, checked by the caller (a bare one rejects it: nothing is opened). */
export function workspaceAhead(options: RunRoleOptions, repo: Promise<RepoState>, stateChecked: Promise<void>): WorkspaceAhead {
  let cancelled = false;
  let taken = false;
  let started: AheadStart | null = null;
  let standby: NodeJS.Immediate | undefined;
  const begin = (role: Role, peers: EnginePeers, sandbox?: string): AheadStart => {
    const startedAt = peers.now();
    const runId = newRunId(role.name, startedAt, peers.randomHex);
    const opened = open(options, runId, repo, stateChecked);
    opened.catch(() => {}); // awaited by the run, or by closeAhead
    // The CLI's cgroup joined while the worktree is made and the prompt packed, so the kernel's
    // wait for the move (~10 ms, standby.ts) is not on the run's way; once the worktree's gits
    // are asked (the standby is a fork of this process). Not where the sandbox moves its CLI
    // again, into limits of its own (bwrap): a second move waits as long as the first unless
    // it follows it closely (the kernel's RCU grace period), so those runs start it just ahead
    // of their CLI, as before (runPrepared).
    if (sandbox === DEFAULT_SANDBOX) standby = setImmediate(() => startRunStandby(runId));
    return (started = { runId, startedAt, opened });
  };
  return {
    start(role, peers, sandbox) {
      if (!cancelled && !started) begin(role, peers, sandbox);
    },
    claim(role, peers) {
      cancelled = true;
      return started ?? begin(role, peers);
    },
    take() {
      taken = true;
    },
    async closeAhead() {
      cancelled = true;
      if (taken) return;
      clearImmediate(standby);
      const opened = await started?.opened.catch(() => null);
      // The standby started here for the run's CLI, and its cgroup (none was, without one scheduled).
      if (started && standby) await endRunProcesses(started.runId, [], options.graceMs ?? DEFAULT_GRACE_MS);
      if (opened?.workspace) await closeWorkspace(options.repoRoot, opened.workspace, options.env).catch(() => {});
    },
  };
}

async function open(options: RunRoleOptions, runId: string, inspected: Promise<RepoState>, stateChecked: Promise<void>): Promise<OpenedAhead> {
  const repo = await inspected;
  await stateChecked;
  // Checked, not made: the checkout's state folder is made once the run's log begins.
  const paths = statePaths(options.repoRoot);
  // SECURITY I1: the user's checkout as it is before any CLI runs (in place the CLI works in it by design).
  const checkout = inPlaceReason(options.worktree !== false, repo) === null ? recordCheckout(options.repoRoot, options.env) : null;
  checkout?.catch(() => {}); // awaited by the run
  try {
    const workspace = await openWorkspace({ repoRoot: options.repoRoot, runId, worktreesDir: paths.worktrees, useWorktree: options.worktree !== false, repo, env: options.env });
    return { repo, workspace, failure: null, checkout };
  } catch (failure) {
    return { repo, workspace: null, failure, checkout };
  }
}
