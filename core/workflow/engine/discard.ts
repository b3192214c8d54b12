/**
 * `workflow discard`: what a workflow left, found through our own names (names.ts) and never
 * through git's worktree list or a folder's `.git` (a CLI may have rewritten those): its
 * branches (`supervisor/wf/<id>` and `supervisor/wf/<id>--<task>`), the integration record,
 * its worktree folder (slots, gates, slots set aside), its runs' folders and its state folder.
 * `inventoryDiscard` judges which of it holds work found nowhere else; `removeDiscarded` removes
 * it all. The refusal (busy, unmerged without --force) is the application layer's.
 */
import { existsSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../git/git.ts';
import { isRunId } from '../../run/run-id.ts';
import { statePaths } from '../../state-dir.ts';
import { integratedTaskIds, isAncestor, type GitOps } from './git-ops.ts';
import { recordRef } from './integration-ref.ts';
import { gatesWorktree, integrationBranch, slotsDir, workflowOfBranch, workflowPaths } from './names.ts';
import { listWorkflowIds, WorkflowStore } from './store.ts';

export interface DiscardBranch {
  name: string;
  commit: string;
  /** Why its work would be lost (null: it is on the integration branch, a branch of yours, or the base). */
  unmerged: string | null;
}

export interface DiscardInventory {
  workflow_id: string;
  /** Whether the workflow's state folder exists (a discard cut short leaves branches without it). */
  state: boolean;
  branches: DiscardBranch[];
  /** The integration record ref (integration-ref.ts), when there is one. */
  record: string | null;
  /** The workflow's worktree folders (slots, gates, slots set aside), as our names give them. */
  worktrees: string[];
  /** Run folders named by the workflow's events. */
  runs: string[];
  /** Folders that would go: the worktrees' folder and the state folder. */
  folders: string[];
}

/** What a workflow's events and plan say about it, or nothing when its state cannot be read (a discard still goes on). */
function readState(store: WorkflowStore): { base: string | null; tasks: string[]; runs: string[] } {
  try {
    const events = store.events();
    const started = events.find((e) => e.kind === 'workflow_started');
    const runs = events.flatMap((e) => ('run_id' in e && typeof e.run_id === 'string' && isRunId(e.run_id) ? [e.run_id] : []));
    let tasks: string[] = [];
    try {
      tasks = store.plan().tasks.map((t) => t.id);
    } catch {
      tasks = [];
    }
    return { base: started && 'base' in started ? started.base : null, tasks, runs: [...new Set(runs)] };
  } catch {
    return { base: null, tasks: [], runs: [] };
  }
}

/** The branches of the workflow `id` (never another workflow's whose id starts the same: the longest known id wins). */
async function branchesOf(ops: GitOps, id: string): Promise<{ name: string; commit: string; taskId: string | null }[]> {
  const listed = await git(ops.repoRoot, ['for-each-ref', '--format=%(refname:short)%09%(objectname)', 'refs/heads/supervisor/wf/'], ops.env);
  if (!listed.ok) return [];
  const ids = [...new Set([...listWorkflowIds(ops.repoRoot), id])];
  const found = [];
  for (const line of listed.stdout.split('\n').filter(Boolean)) {
    const [name = '', commit = ''] = line.split('\t');
    const owner = workflowOfBranch(name, ids);
    if (owner?.workflowId === id) found.push({ name, commit, taskId: owner.taskId });
  }
  return found;
}

/** Local branches that are not ours (`supervisor/...`) holding `commit`: the user's. */
async function usersBranchesHolding(ops: GitOps, commit: string): Promise<string[]> {
  const listed = await git(ops.repoRoot, ['for-each-ref', '--contains', commit, '--format=%(refname:short)', 'refs/heads/'], ops.env);
  return listed.ok ? listed.stdout.split('\n').filter((b) => b && !b.startsWith('supervisor/')) : [];
}

async function safeElsewhere(ops: GitOps, commit: string, base: string | null): Promise<boolean> {
  if (base !== null && (await isAncestor(ops, commit, base))) return true;
  return (await usersBranchesHolding(ops, commit)).length > 0;
}

/** The folders of the workflow's worktrees, each a directory (not a link) under the names our names functions give. */
function worktreeFolders(repoRoot: string, id: string): string[] {
  const paths = workflowPaths(repoRoot, id);
  const isFolder = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  const inside = (folder: string) => (isFolder(folder) ? readdirSync(folder).map((name) => join(folder, name)).filter(isFolder) : []);
  return [...inside(slotsDir(paths)), ...(isFolder(gatesWorktree(paths)) ? [gatesWorktree(paths)] : []), ...inside(join(paths.worktrees, 'kept'))];
}

export async function inventoryDiscard(ops: GitOps, id: string): Promise<DiscardInventory> {
  const store = new WorkflowStore(ops.repoRoot, id);
  const state = readState(store);
  // A branch named like a task branch of a task the plan does not have is a person's (`supervisor/wf/<id>--mine`): left alone.
  const found = (await branchesOf(ops, id)).filter((b) => b.taskId === null || !state.tasks.length || state.tasks.includes(b.taskId));
  const integration = found.find((b) => b.taskId === null) ?? null;
  const integrated = integration && state.base ? await integratedTaskIds(ops, state.base, integration.name) : new Set<string>();
  const integrationSafe = integration ? await safeElsewhere(ops, integration.commit, state.base) : true;
  const branches: DiscardBranch[] = [];
  for (const branch of found) {
    let unmerged: string | null = null;
    if (branch.taskId === null) {
      if (!integrationSafe) unmerged = `${branch.name} is merged into no branch of yours (supervisor workflow finish ${id} --into <branch> hands it on)`;
    } else if (!(await safeElsewhere(ops, branch.commit, state.base))) {
      const onIntegration = integration !== null && (integrated.has(branch.taskId) || (await isAncestor(ops, branch.commit, integration.commit)));
      if (!onIntegration) unmerged = `${branch.name} holds commits that are not on ${integrationBranch(id)}`;
    }
    branches.push({ name: branch.name, commit: branch.commit, unmerged });
  }
  const record = recordRef(integrationBranch(id));
  const hasRecord = (await git(ops.repoRoot, ['rev-parse', '--verify', '-q', record], ops.env)).ok;
  const { runs } = statePaths(ops.repoRoot);
  const paths = workflowPaths(ops.repoRoot, id);
  return {
    workflow_id: id,
    state: store.exists() || existsSync(paths.dir),
    branches,
    record: hasRecord ? record : null,
    worktrees: worktreeFolders(ops.repoRoot, id),
    runs: state.runs.filter((run) => existsSync(join(runs, run))),
    folders: [paths.worktrees, paths.dir].filter((folder) => lstatSync(folder, { throwIfNoEntry: false }) !== undefined),
  };
}

/**
 * Removes what the inventory names. Branches go by compare-and-swap in one ref transaction (a
 * branch that moved since it was judged fails the whole transaction: nothing is deleted); the
 * state folder goes last, so a discard cut short can be run again.
 */
export async function removeDiscarded(ops: GitOps, inventory: DiscardInventory): Promise<{ ok: true } | { ok: false; problem: string }> {
  if (inventory.branches.length || inventory.record) {
    const lines = inventory.branches.map((b) => `delete refs/heads/${b.name} ${b.commit}`);
    if (inventory.record) lines.push(`delete ${inventory.record}`);
    const deleted = await git(ops.repoRoot, ['update-ref', '-m', 'supervisor workflow discard', '--stdin'], ops.env, `start\n${lines.join('\n')}\ncommit\n`);
    if (!deleted.ok) return { ok: false, problem: deleted.stderr.trim() };
  }
  let pruned = false;
  for (const path of inventory.worktrees) {
    // git finds the worktree by the path we give among the ones it registered; a folder whose links a CLI broke is removed by us.
    const removed = await git(ops.repoRoot, ['worktree', 'remove', '--force', '--force', path], ops.env);
    if (!removed.ok) {
      rmSync(path, { recursive: true, force: true });
      pruned = true;
    }
  }
  if (pruned) await git(ops.repoRoot, ['worktree', 'prune'], ops.env);
  const { runs } = statePaths(ops.repoRoot);
  for (const run of inventory.runs) rmSync(join(runs, run), { recursive: true, force: true });
  for (const folder of inventory.folders) rmSync(folder, { recursive: true, force: true });
  return { ok: true };
}
