/**
 * `run`'s set-up: the role's `setup` and `--setup`, run in the run's new worktree before the
 * CLI starts (setup.ts does the work). Each step is a `setup` event in the run log. What set-up
 * left is recorded on the workspace (`exclude`), so the run's commit leaves it out. A failing
 * command ends the run SETUP_FAILED (exit 2): nothing ran, nothing is committed. A caller's
 * worktree (a workflow task's) is set up by the caller from its plan, and an in-place run has
 * no fresh checkout to set up: both skip it. Under a sandbox, set-up runs in it as the CLI does,
 * with the role's network (a package install needs its registry: allow it in the role).
 */
import { worktreeGit } from '../git/bound-git.ts';
import { errors } from '../errors.ts';
import { attemptSandbox } from '../sandbox/runner.ts';
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
  // The CLI's way to spawn: through the run's sandbox with the CLI's policy (the role's network).
  const sandboxed = attemptSandbox({
    sandbox: prepared.sandbox,
    access: prepared.adapter.access,
    env: input.env,
    self: peers.self,
    notice: input.notice,
    event: (type, data) => log.event(type, { during: 'setup', ...data }),
    cwd: workspace.path,
    ...worktreeGit(workspace.git),
    scratchDir: log.folder('setup'),
    id: `${input.runId}-setup`,
    runProcess: peers.runProcess,
  });
  const result = await setUpWorktree({
    spec: { commands, copy: [], timeoutMs: Math.round(timeout * 1000) },
    worktree: workspace.git,
    repoRoot: options.repoRoot,
    env: input.env,
    graceMs: prepared.settings.graceMs,
    ...(options.signal ? { signal: options.signal } : {}),
    runProcess: sandboxed.cli,
    onStep: ({ kind, ...step }) => log.event('setup', { step: kind, ...step }),
  });
  if (result.ok) {
    workspace.exclude = result.excludePaths;
    return;
  }
  const failure = result.interrupted ? errors.interrupted() : errors.setupFailed(workspace.path, setupFailureIssue(result));
  log.event('run_finished', { status: 'error', exit_code: failure.exitCode, error: { code: failure.code, message: failure.message } });
  if (!options.keepWorktree) await closeWorkspace(options.repoRoot, workspace, options.env).catch(() => {});
  throw failure;
}
