/**
 * Worktrees left behind by runs that were killed outright (kill -9, a crash, a power cut):
 * each new run looks for them, commits what they hold on `supervisor/<run-id>` so no work is
 * lost, and removes them. A run counts as dead when it has no result.json and the process
 * that started it is gone; a lock file makes sure only one new run recovers each, and is
 * removed again when the recovery fails, so the next run tries once more.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GitEnv } from './git.ts';
import { isRunId } from './run-id.ts';
import { RunLog } from './run-log.ts';
import { alive, readEvents } from './runs-store.ts';
import type { StatePaths } from './state-dir.ts';
import { closeWorkspace, commitWorkspace, type Workspace } from './worktree.ts';

/** Returns one line per worktree found, for the new run's notices. */
export async function recoverStaleWorktrees(repoRoot: string, paths: StatePaths, now: () => Date, env?: GitEnv): Promise<string[]> {
  if (!existsSync(paths.worktrees)) return [];
  const recovered: string[] = [];
  for (const id of readdirSync(paths.worktrees)) {
    const runDir = join(paths.runs, id);
    if (!isRunId(id) || !existsSync(runDir) || existsSync(join(runDir, 'result.json'))) continue;
    const events = readEvents(runDir);
    if (events.some((e) => e.kind === 'run_finished')) continue; // finished, worktree kept on purpose
    if (alive(events.find((e) => e.kind === 'run_started')?.pid)) continue;
    const lock = join(runDir, '.recovering');
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      continue; // another run is on it
    }
    const base = events.find((e) => e.kind === 'workspace_ready')?.base;
    const workspace: Workspace = { mode: 'worktree', path: join(paths.worktrees, id), base: typeof base === 'string' ? base : null, reason: null };
    try {
      recovered.push(await recoverOne(repoRoot, workspace, id, new RunLog(runDir, now), env));
    } catch (error) {
      rmSync(lock, { force: true });
      recovered.push(`run ${id} was killed before it finished; its worktree ${workspace.path} could not be recovered (the next run tries again): ${(error as Error).message}`);
    }
  }
  return recovered;
}

async function recoverOne(repoRoot: string, workspace: Workspace, id: string, log: RunLog, env?: GitEnv): Promise<string> {
  // Killed between `git worktree add` and workspace_ready: the CLI never ran there, so there
  // is nothing to keep, only a checkout to remove.
  const changes = workspace.base === null ? null : await commitWorkspace(workspace, id, `supervisor: work of run ${id}, recovered after it was killed`, env);
  if (changes) log.event('committed', { branch: changes.branch, git_range: changes.gitRange, files_changed: changes.filesChanged, recovered: true });
  await closeWorkspace(repoRoot, workspace, env);
  log.event('workspace_removed', { path: workspace.path, recovered: true });
  if (workspace.base === null) return `run ${id} was killed before its worktree was ready: its worktree is removed (the CLI had not started)`;
  return `run ${id} was killed before it finished: its worktree is removed${changes ? `, its changes are on ${changes.branch}` : ''}`;
}
