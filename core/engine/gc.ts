/**
 * `supervisor gc`: removes what runs leave behind once it is of no use — run folders older than
 * an age, worktrees of runs that are over, and `supervisor/*` branches that are merged (or old,
 * when asked). It never touches a live run, never deletes unmerged work or uncommitted changes
 * unless asked, and leaves workflow branches (`supervisor/wf/...`) alone unless asked and their
 * workflow finished with a pass.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { git, type GitEnv } from './git.ts';
import { isRunId } from './run-id.ts';
import { alive, listRuns, readEvents } from './runs-store.ts';
import { statePaths } from './state-dir.ts';

export interface GcOptions {
  repoRoot: string;
  /** Run folders and unmerged branches older than this are candidates. */
  olderThanMs: number;
  now: Date;
  /** Report what would go; remove nothing. */
  dryRun: boolean;
  /** Also delete old branches with unmerged work, and worktrees with uncommitted changes. */
  includeUnmerged: boolean;
  /** Also consider branches under supervisor/wf/ (only of workflows that finished with a pass). */
  includeWorkflows: boolean;
  env?: GitEnv;
}

export interface GcItem {
  kind: 'run' | 'worktree' | 'branch';
  name: string;
  reason: string;
}

export interface GcReport {
  dry_run: boolean;
  older_than_ms: number;
  removed: GcItem[];
  kept: GcItem[];
}

const WORKFLOW_PREFIX = 'supervisor/wf/';

/** A run is live while its process runs and it has not finished. */
function runIsLive(runDir: string): boolean {
  if (existsSync(join(runDir, 'result.json'))) return false;
  const events = readEvents(runDir);
  if (events.some((e) => e.kind === 'run_finished')) return false;
  return alive(events.find((e) => e.kind === 'run_started')?.pid);
}

async function collectWorktrees(opts: GcOptions, report: GcReport): Promise<Set<string>> {
  const { runs, worktrees } = statePaths(opts.repoRoot);
  const removed = new Set<string>();
  if (!existsSync(worktrees)) return removed;
  for (const name of readdirSync(worktrees).sort()) {
    const path = join(worktrees, name);
    const item = (reason: string): GcItem => ({ kind: 'worktree', name: path, reason });
    if (!isRunId(name)) {
      report.kept.push(item('not the worktree of a run (left alone)'));
      continue;
    }
    if (runIsLive(join(runs, name))) {
      report.kept.push(item('its run is still going'));
      continue;
    }
    const status = await git(path, ['status', '--porcelain', '-z'], opts.env);
    const dirty = status.ok && status.stdout.length > 0;
    if (dirty && !opts.includeUnmerged) {
      report.kept.push(item('it holds uncommitted changes (--include-unmerged removes it; the next run commits a killed run\'s work)'));
      continue;
    }
    if (!opts.dryRun) {
      const gone = await git(opts.repoRoot, ['worktree', 'remove', '--force', '--force', path], opts.env);
      if (!gone.ok) rmSync(path, { recursive: true, force: true });
    }
    removed.add(path);
    report.removed.push(item(dirty ? 'its run is over (uncommitted changes dropped: --include-unmerged)' : 'its run is over'));
  }
  if (!opts.dryRun && removed.size) await git(opts.repoRoot, ['worktree', 'prune'], opts.env);
  return removed;
}

function collectRuns(opts: GcOptions, report: GcReport, cutoff: number): void {
  const { runs } = statePaths(opts.repoRoot);
  for (const run of listRuns(opts.repoRoot)) {
    const started = run.started_at ? Date.parse(run.started_at) : statSync(run.run_dir).mtimeMs;
    if (started >= cutoff) continue;
    if (run.state === 'running') {
      report.kept.push({ kind: 'run', name: run.run_id, reason: 'still running' });
      continue;
    }
    if (!opts.dryRun) rmSync(join(runs, run.run_id), { recursive: true, force: true });
    report.removed.push({ kind: 'run', name: run.run_id, reason: 'older than the age' });
  }
}

/** Whether the workflow a branch belongs to finished with a pass (its result.json says so). */
function workflowPassed(repoRoot: string, branch: string): boolean {
  const id = branch.slice(WORKFLOW_PREFIX.length).split('/')[0] ?? '';
  if (!/^[A-Za-z0-9._-]+$/.test(id)) return false;
  try {
    const result = JSON.parse(readFileSync(join(statePaths(repoRoot).root, 'workflows', id, 'result.json'), 'utf8')) as { status?: unknown };
    return result.status === 'pass';
  } catch {
    return false;
  }
}

async function collectBranches(opts: GcOptions, report: GcReport, cutoff: number, removedWorktrees: Set<string>): Promise<void> {
  const refs = await git(opts.repoRoot, ['for-each-ref', '--format=%(refname:short)%09%(committerdate:unix)%09%(worktreepath)', 'refs/heads/supervisor/'], opts.env);
  if (!refs.ok) return;
  const merged = await git(opts.repoRoot, ['branch', '--merged', 'HEAD', '--format=%(refname:short)', '--list', 'supervisor/*'], opts.env);
  const mergedSet = new Set(merged.ok ? merged.stdout.split('\n').filter(Boolean) : []);
  const { runs } = statePaths(opts.repoRoot);
  for (const line of refs.stdout.split('\n').filter(Boolean)) {
    const [name = '', time = '0', worktree = ''] = line.split('\t');
    const keep = (reason: string) => report.kept.push({ kind: 'branch', name, reason });
    if (worktree && !removedWorktrees.has(worktree)) {
      keep(`checked out in ${worktree}`);
      continue;
    }
    if (name.startsWith(WORKFLOW_PREFIX)) {
      if (!opts.includeWorkflows) {
        keep('a workflow branch (--include-workflows considers it)');
        continue;
      }
      if (!workflowPassed(opts.repoRoot, name)) {
        keep('its workflow has not finished with a pass');
        continue;
      }
    }
    const runId = name.slice('supervisor/'.length);
    if (isRunId(runId) && runIsLive(join(runs, runId))) {
      keep('its run is still going');
      continue;
    }
    let reason: string;
    if (mergedSet.has(name)) reason = 'merged into HEAD';
    else if (Number(time) * 1000 >= cutoff) {
      keep('unmerged work, newer than the age');
      continue;
    } else if (!opts.includeUnmerged) {
      keep('unmerged work (--include-unmerged deletes it)');
      continue;
    } else reason = 'older than the age, unmerged (--include-unmerged)';
    if (!opts.dryRun) {
      const deleted = await git(opts.repoRoot, ['branch', '-D', '-q', name], opts.env);
      if (!deleted.ok) {
        keep(`git could not delete it: ${deleted.stderr.trim()}`);
        continue;
      }
      // An integration branch's record (core/workflow/engine/integration-ref.ts) goes with it, or it would keep its commits.
      if (name.startsWith(WORKFLOW_PREFIX) && !name.includes('--')) await git(opts.repoRoot, ['update-ref', '-d', `refs/supervisor/integration/${name.slice(WORKFLOW_PREFIX.length)}`], opts.env);
    }
    report.removed.push({ kind: 'branch', name, reason });
  }
}

export async function collectGarbage(opts: GcOptions): Promise<GcReport> {
  const report: GcReport = { dry_run: opts.dryRun, older_than_ms: opts.olderThanMs, removed: [], kept: [] };
  const cutoff = opts.now.getTime() - opts.olderThanMs;
  const removedWorktrees = await collectWorktrees(opts, report);
  collectRuns(opts, report, cutoff);
  await collectBranches(opts, report, cutoff, removedWorktrees);
  return report;
}
