/**
 * Worktrees left behind by runs that were killed outright (kill -9, a crash, a power cut):
 * each new run looks for them, ends whatever processes the dead run left (its CLI's recorded
 * process group, anything carrying its run id), then commits what the worktree holds on
 * `supervisor/<run-id>` so no work is lost, and removes it. A run counts as dead when it has
 * no result.json and the process its run_started names is gone (a run without one is starting:
 * its worktree is made before its log, workspace-ahead.ts); a lock file makes sure only one new
 * run recovers each, and is removed again when the recovery fails, so the next run tries once
 * more. Git is bound to the worktree recorded in the run log, and the worktree is checked
 * first: one that is no longer what it was is kept, named, and nothing is committed.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSupervisorError } from '../errors.ts';
import { alive } from '../process/alive.ts';
import { DEFAULT_GRACE_MS } from '../process/run-process.ts';
import { commonGitDir } from '../git/bound-git.ts';
import type { GitEnv } from '../git/git.ts';
import { isRunId } from './run-id.ts';
import { RunLog, readEvents, type RunEvent } from './run-log.ts';
import { describeTargets, endRunProcesses } from './run-processes.ts';
import type { StatePaths } from '../state-dir.ts';
import { closeWorkspace, saveWorkspace, type Workspace } from './worktree.ts';

/** Returns one line per worktree found, for the new run's notices. */
export async function recoverStaleWorktrees(repoRoot: string, paths: StatePaths, now: () => Date, env?: GitEnv): Promise<string[]> {
  if (!existsSync(paths.worktrees)) return [];
  const recovered: string[] = [];
  let commonDir: string | undefined;
  for (const id of readdirSync(paths.worktrees)) {
    const runDir = join(paths.runs, id);
    if (!isRunId(id) || !existsSync(runDir) || existsSync(join(runDir, 'result.json'))) continue;
    const events = readEvents(runDir);
    if (events.some((e) => e.kind === 'run_finished')) continue; // finished, worktree kept on purpose
    const started = events.find((e) => e.kind === 'run_started');
    if (!started || alive(started.pid)) continue;
    const lock = join(runDir, '.recovering');
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      continue; // another run is on it
    }
    const path = join(paths.worktrees, id);
    try {
      // Its CLI may still be running (the run was killed, its CLI was not): end it before touching anything.
      const ended = await endRunProcesses(id, recordedGroups(events), DEFAULT_GRACE_MS);
      if (ended.remaining.length) throw new Error(`its processes are still running (${describeTargets(ended.remaining)}), so its worktree is left alone`);
      // Logged first: a broken worktree below must not lose the record of what was ended.
      const log = new RunLog(runDir, now);
      if (ended.signalled.length) log.event('notice', { message: `recovery ended processes of this run: ${describeTargets(ended.signalled)}` });
      commonDir ??= await commonGitDir(repoRoot, env);
      const workspace = recordedWorkspace(events, path, id, commonDir);
      recovered.push(await recoverOne(repoRoot, workspace, id, log, env));
    } catch (error) {
      if (isSupervisorError(error) && (error.code === 'WORKSPACE_BROKEN' || error.code === 'COMMIT_FAILED')) {
        // Not retried: the lock stays and the run log says why; the folder is the user's to look at.
        const failure = { class: error.code === 'WORKSPACE_BROKEN' ? 'workspace_broken' : 'commit_failed', detail: error.message };
        new RunLog(runDir, now).event('run_finished', { status: 'error', recovered: true, failure });
        recovered.push(`run ${id} was killed before it finished. ${error.message}. Its folder ${path} is kept for inspection; your checkout was not touched`);
        continue;
      }
      rmSync(lock, { force: true });
      recovered.push(`run ${id} was killed before it finished; its worktree ${path} could not be recovered (the next run tries again): ${(error as Error).message}`);
    }
  }
  return recovered;
}

/** The process groups the run's CLI attempts led, as its log recorded them. */
function recordedGroups(events: RunEvent[]): number[] {
  return events.filter((e) => e.kind === 'cli_started' && Number.isInteger(e.pgid) && (e.pgid as number) > 1).map((e) => e.pgid as number);
}

/** The workspace as the run recorded it: git bound to the admin folder it logged (or the one git names after the worktree). */
function recordedWorkspace(events: RunEvent[], path: string, id: string, commonDir: string): Workspace {
  const ready = events.find((e) => e.kind === 'workspace_ready');
  const base = typeof ready?.base === 'string' ? ready.base : null;
  const gitDir = typeof ready?.git_dir === 'string' ? ready.git_dir : join(commonDir, 'worktrees', id);
  return { mode: 'worktree', path, base, reason: null, git: { path, gitDir, commonDir } };
}

async function recoverOne(repoRoot: string, workspace: Workspace, id: string, log: RunLog, env?: GitEnv): Promise<string> {
  // Killed between `git worktree add` and workspace_ready: the CLI never ran there, so there
  // is nothing to keep, only a checkout to remove.
  const saved = workspace.base === null
    ? null
    : await saveWorkspace(workspace, { runId: id, message: `supervisor: work of run ${id}, recovered after it was killed`, repoRoot, env });
  const changes = saved?.changes ?? null;
  if (changes) log.event('committed', { branch: changes.branch, git_range: changes.gitRange, files_changed: changes.filesChanged, recovered: true });
  for (const message of saved?.notices ?? []) log.event('notice', { message });
  const notes = saved?.notices.length ? ` (${saved.notices.join('; ')})` : '';
  if (saved?.keep) return `run ${id} was killed before it finished: its worktree ${workspace.path} is kept${changes ? `, its changes are on ${changes.branch}` : ''}${notes}`;
  await closeWorkspace(repoRoot, workspace, env);
  log.event('workspace_removed', { path: workspace.path, recovered: true });
  if (workspace.base === null) return `run ${id} was killed before its worktree was ready: its worktree is removed (the CLI had not started)`;
  return `run ${id} was killed before it finished: its worktree is removed${changes ? `, its changes are on ${changes.branch}` : ''}${notes}`;
}
