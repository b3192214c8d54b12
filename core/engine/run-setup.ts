/**
 * `run`'s set-up: the role's `setup` and `--setup`, run in the run's new worktree before the
 * CLI starts (setup.ts does the work). Each step is a `setup` event in the run log. What set-up
 * left is recorded on the workspace (`exclude`), so the run's commit leaves it out. A failing
 * command ends the run SETUP_FAILED (exit 2): nothing ran, nothing is committed. A caller's
 * worktree (a workflow task's) is set up by the caller from its plan, and an in-place run has
 * no fresh checkout to set up: both skip it.
 */
import { errors } from '../errors.ts';
import type { RunProcessOptions, RunProcessResult } from '../process/run-process.ts';
import type { Role } from '../roles/role.ts';
import type { RunRoleOptions } from './options.ts';
import type { RunLog } from './run-log.ts';
import { DEFAULT_SETUP_TIMEOUT_S, setUpWorktree, setupFailureIssue } from './setup.ts';
import { closeWorkspace, type Workspace } from './worktree.ts';

export interface RunSetupInput {
  options: RunRoleOptions;
  role: Role;
  workspace: Workspace;
  env: Record<string, string | undefined>;
  graceMs: number;
  log: RunLog;
  notice: (message: string) => void;
  runProcess: (options: RunProcessOptions) => Promise<RunProcessResult>;
}

export async function setUpRun(input: RunSetupInput): Promise<void> {
  const { options, workspace, log } = input;
  const commands = [...(input.role.setup ?? []), ...(options.setup ?? [])];
  if (!commands.length || options.workspace) return;
  if (workspace.mode !== 'worktree' || !workspace.git) {
    input.notice(`set-up skipped: it runs in a new worktree, and this run is in place (${workspace.reason ?? 'no worktree'})`);
    return;
  }
  const timeout = typeof input.role.config.setup_timeout === 'number' ? input.role.config.setup_timeout : DEFAULT_SETUP_TIMEOUT_S;
  const result = await setUpWorktree({
    spec: { commands, copy: [], timeoutMs: Math.round(timeout * 1000) },
    worktree: workspace.git,
    repoRoot: options.repoRoot,
    env: input.env,
    graceMs: input.graceMs,
    ...(options.signal ? { signal: options.signal } : {}),
    runProcess: input.runProcess,
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
