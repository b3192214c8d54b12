/**
 * `supervisor gc`: removes what runs leave behind once it is of no use — run folders older than
 * an age, worktrees of runs that are over, and `supervisor/*` branches that are merged (or old,
 * when asked). It never touches a live run, never deletes unmerged work or uncommitted changes
 * unless asked, and leaves workflow branches (`supervisor/wf/...`) alone unless asked and their
 * workflow finished with a pass. A CLI's checkpoint refs that a run of ours created go too (gc-cli-refs.ts).
 */
import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { git, type GitEnv } from '../git/git.ts';
import { commonGitDir } from '../git/bound-git.ts';
import { isRunId } from '../run/run-id.ts';
import { alive, listRuns, readEvents } from './runs-store.ts';
import { statePaths } from '../state-dir.ts';
import { RESUMABLE } from '../workflow/engine/result.ts';
import { recordRef } from '../workflow/engine/integration-ref.ts';
import { integrationBranch, slotsDir, workflowOfBranch, workflowPaths } from '../workflow/engine/names.ts';
import { inventoryDiscard, removeDiscarded } from '../workflow/engine/discard.ts';
import { listWorkflowIds, WorkflowStore } from '../workflow/engine/store.ts';
import type { WorkflowLock } from '../workflow/engine/lock.ts';
import { isSupervisorError } from '../errors.ts';
import { removeCliRefs } from './gc-cli-refs.ts';
import { collectWorktrees } from './gc-worktrees.ts';

export interface GcOptions {
  repoRoot: string;
  /** Run folders and unmerged branches older than this are candidates. */
  olderThanMs: number;
  now: Date;
  /** Report what would go; remove nothing. */
  dryRun: boolean;
  /** Also delete old branches with unmerged work, and worktrees with uncommitted changes. */
  includeUnmerged: boolean;
  /**
   * Also remove finished workflows whose work is on a branch of yours (merged, or handed on by
   * `workflow finish`): branches, worktrees, runs and state; and consider branches under supervisor/wf/.
   */
  includeWorkflows: boolean;
  /** Also remove worktrees a run kept on purpose (`run --keep-worktree`). */
  includeKept?: boolean;
  env?: GitEnv;
}

export interface GcItem {
  kind: 'run' | 'worktree' | 'branch' | 'ref' | 'workflow';
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

/**
 * A workflow branch (its integration branch or a task branch) may go once its workflow has
 * finished and its integration branch was merged into HEAD or handed on (`workflow finish`):
 * the reason to delete it, or null with the reason to keep it.
 */
function workflowBranchVerdict(store: WorkflowStore, owner: { workflowId: string; taskId: string | null }, mergedSet: Set<string>, includeUnmerged: boolean): { reason: string; record?: string } | { keep: string } {
  let status: string | null = null;
  let handedOn = false;
  let taskIds: string[] = [];
  try {
    status = store.result()?.status ?? null;
    handedOn = store.events().some((e) => e.kind === 'handed_on');
    taskIds = store.plan().tasks.map((t) => t.id);
  } catch {
    return { keep: 'its workflow state cannot be read' };
  }
  // A branch named like a task branch of the workflow but of no task it has is not the workflow's (a person's `supervisor/wf/<id>--mine`).
  if (owner.taskId !== null && !taskIds.includes(owner.taskId) && !includeUnmerged) return { keep: `the workflow ${owner.workflowId} has no task ${owner.taskId} (--include-unmerged deletes it)` };
  if (status === null || RESUMABLE.includes(status)) return { keep: 'its workflow has not finished' };
  const integration = integrationBranch(owner.workflowId);
  const record = owner.taskId === null ? { record: recordRef(integration) } : {};
  if (mergedSet.has(integration)) return { reason: `its workflow finished (${status}) and ${integration} is merged into HEAD`, ...record };
  if (handedOn) return { reason: `its workflow finished (${status}) and was handed on (workflow finish)`, ...record };
  return { keep: `its workflow finished (${status}), but ${integration} is neither merged into HEAD nor handed on (supervisor workflow finish)` };
}

async function collectBranches(opts: GcOptions, report: GcReport, cutoff: number, removedWorktrees: Set<string>, handled: JudgedWorkflows): Promise<void> {
  const refs = await git(opts.repoRoot, ['for-each-ref', '--format=%(refname:short)%09%(committerdate:unix)%09%(worktreepath)%09%(objectname)', 'refs/heads/supervisor/'], opts.env);
  if (!refs.ok) return;
  const merged = await git(opts.repoRoot, ['branch', '--merged', 'HEAD', '--format=%(refname:short)', '--list', 'supervisor/*'], opts.env);
  const mergedSet = new Set(merged.ok ? merged.stdout.split('\n').filter(Boolean) : []);
  const { runs } = statePaths(opts.repoRoot);
  const workflowIds = opts.includeWorkflows ? listWorkflowIds(opts.repoRoot) : [];
  for (const line of refs.stdout.split('\n').filter(Boolean)) {
    const [name = '', time = '0', worktree = '', commit = ''] = line.split('\t');
    const keep = (reason: string) => report.kept.push({ kind: 'branch', name, reason });
    if (handled.gone.has(name)) continue; // went with its workflow
    const unmerged = handled.unmerged.get(name);
    if (unmerged !== undefined && !opts.includeUnmerged) {
      keep(`${unmerged} (supervisor workflow discard <id> --force drops it)`);
      continue;
    }
    if (worktree && !removedWorktrees.has(worktree)) {
      keep(`checked out in ${worktree}`);
      continue;
    }
    if (name.startsWith(WORKFLOW_PREFIX)) {
      if (!opts.includeWorkflows) {
        keep('a workflow branch (--include-workflows considers it)');
        continue;
      }
      await removeWorkflowBranch(opts, report, { name, commit }, workflowIds, mergedSet, keep);
      continue;
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
    await removeBranch(opts, report, { name, commit, reason }, keep);
  }
}

interface Doomed {
  name: string;
  /** The commit the branch was at when it was judged: it is deleted only if it is still there. */
  commit: string;
  reason: string;
  /** An integration branch's record (core/workflow/engine/integration-ref.ts): it goes with it, or it would keep its commits. */
  record?: string;
}

/**
 * Deletes the branch (and its record) in one ref transaction, by compare-and-swap: a branch
 * that moved since it was judged (a workflow retried meanwhile, a person's commit) is kept.
 */
async function removeBranch(opts: GcOptions, report: GcReport, doomed: Doomed, keep: (reason: string) => void): Promise<void> {
  if (!opts.dryRun) {
    const stdin = `start\ndelete refs/heads/${doomed.name} ${doomed.commit}\n${doomed.record ? `delete ${doomed.record}\n` : ''}commit\n`;
    const deleted = await git(opts.repoRoot, ['update-ref', '-m', 'supervisor gc', '--stdin'], opts.env, stdin);
    if (!deleted.ok) return keep(`git could not delete it (it moved since it was judged?): ${deleted.stderr.trim()}`);
  }
  report.removed.push({ kind: 'branch', name: doomed.name, reason: doomed.reason });
}

/**
 * A workflow branch is judged and deleted holding its workflow's lock, so no `workflow retry`
 * or `resume` starts on it meanwhile; a workflow someone holds is kept.
 */
async function removeWorkflowBranch(opts: GcOptions, report: GcReport, doomed: Omit<Doomed, 'reason' | 'record'>, ids: string[], mergedSet: Set<string>, keep: (reason: string) => void): Promise<void> {
  const owner = workflowOfBranch(doomed.name, ids);
  if (!owner) return keep('no workflow recorded in this repository names it');
  const store = new WorkflowStore(opts.repoRoot, owner.workflowId);
  const running = 'its workflow is running (run, resume or retry)';
  let lock: WorkflowLock | null = null;
  try {
    if (opts.dryRun && store.owner()) return keep(running);
    if (!opts.dryRun) lock = store.lock();
  } catch (error) {
    return keep(isSupervisorError(error) && error.code === 'WORKFLOW_BUSY' ? running : `its workflow cannot be locked: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const verdict = workflowBranchVerdict(store, owner, mergedSet, opts.includeUnmerged);
    if ('keep' in verdict) return keep(verdict.keep);
    await removeBranch(opts, report, { ...doomed, ...verdict }, keep);
  } finally {
    lock?.release();
  }
}

export async function collectGarbage(opts: GcOptions): Promise<GcReport> {
  const report: GcReport = { dry_run: opts.dryRun, older_than_ms: opts.olderThanMs, removed: [], kept: [] };
  const cutoff = opts.now.getTime() - opts.olderThanMs;
  const removedWorktrees = await collectWorktrees(opts, report, runIsLive);
  // Before the run folders go: their logs name the CLI refs (checkpoints) the runs created.
  const refs = await removeCliRefs({ repoRoot: opts.repoRoot, dryRun: opts.dryRun, runIsLive, ...(opts.env ? { env: opts.env } : {}) });
  report.removed.push(...refs.removed);
  report.kept.push(...refs.kept);
  const handled = opts.includeWorkflows ? await collectWorkflows(opts, report) : { gone: new Set<string>(), unmerged: new Map<string, string>() };
  collectRuns(opts, report, cutoff);
  await collectBranches(opts, report, cutoff, removedWorktrees, handled);
  if (!opts.dryRun) dropEmptySlotFolders(opts.repoRoot);
  if (!opts.dryRun) await dropOrphanIndexes(opts);
  return report;
}

/** Our own index files (own-index.ts) of worktrees git no longer has. */
async function dropOrphanIndexes(opts: GcOptions): Promise<void> {
  const common = await commonGitDir(opts.repoRoot, opts.env).catch(() => null);
  if (!common) return;
  const folder = join(common, 'supervisor', 'index');
  if (!lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) return;
  for (const name of readdirSync(folder)) {
    if (!lstatSync(join(common, 'worktrees', name.replace(/\.lock$/, '')), { throwIfNoEntry: false })) rmSync(join(folder, name), { force: true });
  }
}

/**
 * A finished workflow whose every branch's work is on a branch of yours (merged, handed on)
 * goes whole, as `workflow discard` takes it: branches, record, worktrees, runs, state. It is
 * judged and removed holding its lock; one that is running, unfinished or holds work found
 * nowhere else is left to the branch pass below, which says why it stays.
 */
interface JudgedWorkflows {
  /** Branches that went with their workflow. */
  gone: Set<string>;
  /** Branches of finished workflows holding work found nowhere else, with why: kept unless --include-unmerged. */
  unmerged: Map<string, string>;
}

async function collectWorkflows(opts: GcOptions, report: GcReport): Promise<JudgedWorkflows> {
  const handled: JudgedWorkflows = { gone: new Set(), unmerged: new Map() };
  const ops = { repoRoot: opts.repoRoot, env: opts.env ?? {} };
  for (const id of listWorkflowIds(opts.repoRoot)) {
    const store = new WorkflowStore(opts.repoRoot, id);
    let lock: WorkflowLock | null = null;
    try {
      if (store.owner()) continue;
      const status = store.result()?.status ?? null;
      if (status === null || RESUMABLE.includes(status)) continue;
      if (!opts.dryRun) lock = store.lock();
      const inventory = await inventoryDiscard(ops, id);
      for (const branch of inventory.branches) if (branch.unmerged) handled.unmerged.set(branch.name, branch.unmerged);
      if (inventory.branches.some((b) => b.unmerged)) continue;
      // Its result taken (its integration branch merged) or handed on: else a retry may still want it.
      const handedOn = store.events().some((e) => e.kind === 'handed_on');
      if (!handedOn && !inventory.branches.some((b) => b.name === integrationBranch(id))) continue;
      if (!opts.dryRun && !(await removeDiscarded(ops, inventory)).ok) continue;
      const reason = `it finished (${status}) and its work is on a branch of yours`;
      report.removed.push({ kind: 'workflow', name: id, reason });
      for (const branch of inventory.branches) handled.gone.add(branch.name);
      for (const branch of inventory.branches) report.removed.push({ kind: 'branch', name: branch.name, reason: `its workflow ${id} is removed: ${reason}` });
    } catch {
      continue; // unreadable or busy: the branch pass reports it
    } finally {
      lock?.release();
    }
  }
  return handled;
}

/** Slot folders (and a workflow's worktree folder) left empty once its slots went, of workflows not running now. */
function dropEmptySlotFolders(repoRoot: string): void {
  for (const id of listWorkflowIds(repoRoot)) {
    if (new WorkflowStore(repoRoot, id).owner()) continue;
    const paths = workflowPaths(repoRoot, id);
    for (const folder of [slotsDir(paths), paths.worktrees]) {
      try {
        rmdirSync(folder); // only an empty folder goes
      } catch {
        break;
      }
    }
  }
}
