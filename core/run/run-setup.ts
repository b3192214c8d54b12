/**
 * `run`'s set-up: the role's `setup` and `--setup`, run in the run's new worktree before the
 * CLI starts (setup.ts does the work). Each step is a `setup` event in the run log. What set-up
 * left is recorded on the workspace (`exclude`), so the run's commit leaves it out. A failing
 * command ends the run SETUP_FAILED (exit 2): nothing ran, nothing is committed. A caller's
 * worktree (a workflow task's) is set up by the caller from its plan, and an in-place run has
 * no fresh checkout to set up: both skip it. Set-up runs through the one executor
 * (core/sandbox/executor.ts): in the run's sandbox with the role's network (a package install
 * needs its registry: allow it in the role), and nothing it started outlives it.
 */
import { worktreeGit } from '../git/bound-git.ts';
import { errors } from '../errors.ts';
import { confinedExecutor } from '../sandbox/executor.ts';
import type { RunRoleOptions } from './options.ts';
import type { PreparedRun } from './prepare.ts';
import type { RunLog } from './run-log.ts';
import { DEFAULT_SETUP_TIMEOUT_S, setUpWorktree, setupFailureIssue } from './setup.ts';
import { closeWorkspace, type Workspace } from './worktree.ts';

export interface RunSetupInput {
  options: RunRoleOptions;
  prepared: PreparedRun;
  workspace: Workspace;
  env: Record<string, string | undefined>;
  runId: string;
  log: RunLog;
  notice: (message: string) => void;
}

export async function setUpRun(input: RunSetupInput): Promise<void> {
  const { options, prepared, workspace, log } = input;
  const { role, peers } = prepared;
  const commands = [...(role.setup ?? []), ...(options.setup ?? [])];
  if (!commands.length || options.workspace) return;
  if (workspace.mode !== 'worktree' || !workspace.git) {
    input.notice(`set-up skipped: it runs in a new worktree, and this run is in place (${workspace.reason ?? 'no worktree'})`);
    return;
  }
  const timeout = typeof role.config.setup_timeout === 'number' ? role.config.setup_timeout : DEFAULT_SETUP_TIMEOUT_S;
  // SECURITY I2: set-up runs what the repository holds: through the one executor, in the run's sandbox (the role's network) and cgroup.
  const executor = confinedExecutor({
    sandbox: prepared.sandbox,
    purpose: 'setup',
    env: input.env,
    self: peers.self,
    notice: input.notice,
    onRefused: (target) => {
      log.event('sandbox_refused', { during: 'setup', purpose: 'setup', sandbox: prepared.sandbox.choice.name, target });
      input.notice(`sandbox ${prepared.sandbox.choice.name} refused a connection to ${target} (set-up)`);
    },
    cwd: workspace.path,
    ...worktreeGit(workspace.git),
    scratchDir: log.folder('setup'),
    id: `${input.runId}-setup`,
    trackingId: input.runId,
    runProcess: peers.runProcess,
  });
  const result = await setUpWorktree({
    spec: { commands, copy: [], timeoutMs: Math.round(timeout * 1000) },
    worktree: workspace.git,
    repoRoot: options.repoRoot,
    env: input.env,
    graceMs: prepared.settings.graceMs,
    ...(options.signal ? { signal: options.signal } : {}),
    runProcess: executor.spawn,
    onStep: ({ kind, ...step }) => log.event('setup', { step: kind, ...step }),
  }).finally(() => executor.close(prepared.settings.graceMs));
  if (result.ok) {
    workspace.exclude = result.excludePaths;
    return;
  }
  const failure = result.interrupted ? errors.interrupted() : errors.setupFailed(workspace.path, setupFailureIssue(result));
  log.event('run_finished', { status: 'error', exit_code: failure.exitCode, error: { code: failure.code, message: failure.message } });
  if (!options.keepWorktree) await closeWorkspace(options.repoRoot, workspace, options.env).catch(() => {});
  throw failure;
}
