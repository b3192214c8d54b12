/**
 * Worktrees left behind by runs that were killed outright (kill -9, a crash, a power cut):
 * each new run looks for them, commits what they hold on `supervisor/<run-id>` so no work is
 * lost, and removes them. A run counts as dead when it has no result.json and the process
 * that started it is gone; a lock file makes sure only one new run recovers each.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunId } from './run-id.ts';
import { RunLog } from './run-log.ts';
import { alive, readEvents } from './runs-store.ts';
import type { StatePaths } from './state-dir.ts';
import { closeWorkspace, commitWorkspace, type Workspace } from './worktree.ts';


/** Returns one line per recovered worktree, for the new run's notices. */
export async function recoverStaleWorktrees(repoRoot: string, paths: StatePaths, now: () => Date): Promise<string[]> {
  if (!existsSync(paths.worktrees)) return [];
  const recovered: string[] = [];
  for (const id of readdirSync(paths.worktrees)) {
    const runDir = join(paths.runs, id);
    if (!isRunId(id) || !existsSync(runDir) || existsSync(join(runDir, 'result.json'))) continue;
    const events = readEvents(runDir);
    if (events.some((e) => e.kind === 'run_finished')) continue; // finished, worktree kept on purpose
    if (alive(events.find((e) => e.kind === 'run_started')?.pid)) continue;
    const base = events.find((e) => e.kind === 'workspace_ready')?.base;
    if (typeof base !== 'string') continue;
    try {
      writeFileSync(join(runDir, '.recovering'), String(process.pid), { flag: 'wx' });
    } catch {
      continue; // another run is on it
    }
    const workspace: Workspace = { mode: 'worktree', path: join(paths.worktrees, id), base, reason: null };
    const log = new RunLog(runDir, now);
    try {
      const changes = await commitWorkspace(workspace, id, `supervisor: work of run ${id}, recovered after it was killed`);
      if (changes) log.event('committed', { branch: changes.branch, git_range: changes.gitRange, files_changed: changes.filesChanged, recovered: true });
      await closeWorkspace(repoRoot, workspace);
      log.event('workspace_removed', { path: workspace.path, recovered: true });
      recovered.push(`run ${id} was killed before it finished: its worktree is removed${changes ? `, its changes are on ${changes.branch}` : ''}`);
    } catch (error) {
      recovered.push(`run ${id} was killed before it finished; its worktree ${workspace.path} could not be recovered: ${(error as Error).message}`);
    }
  }
  return recovered;
}
