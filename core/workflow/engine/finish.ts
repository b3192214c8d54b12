/**
 * `workflow finish`: hands a passed workflow's integration branch on without touching any
 * checkout. `--into <branch>` moves a branch no worktree has checked out (fast-forward, else a
 * merge built with merge-tree; `--squash`: one commit), by compare-and-swap; a branch that is
 * checked out somewhere is left alone and the exact git command to run there is given.
 */
import { git, gitOrThrow } from '../../git/git.ts';
import { SupervisorError } from '../../errors.ts';
import { commitTree, isAncestor, mergedTree, revParse, type GitOps } from './git-ops.ts';
import { IntegrationBranch, zeroId } from './integration-ref.ts';
import { integrationBranch } from './names.ts';
import { engineErrors } from './errors.ts';
import { WorkflowStore } from './store.ts';
import { shellWord } from '../../text/shell-word.ts';

export type FinishAction = 'none' | 'created' | 'up_to_date' | 'fast_forward' | 'merged' | 'squashed';

export interface FinishOutcome {
  workflow_id: string;
  /** The integration branch and its tip. */
  branch: string;
  tip: string;
  into: string | null;
  action: FinishAction;
  /** The new tip of `into` (null without --into). */
  commit: string | null;
  /** Without --into: the command that merges the branch into the current one. */
  command: string | null;
}

const finishErrors = {
  notPassed: (id: string, status: string) =>
    new SupervisorError('WORKFLOW_NOT_PASSED', `The workflow ${id} is ${status}, not pass: only a passed workflow is handed on`, {
      details: { workflow_id: id, status },
      hint: `See what is left: supervisor workflow status ${id}`,
    }),
  checkedOut: (into: string, worktree: string, command: string) =>
    new SupervisorError('WORKFLOW_FINISH_CHECKED_OUT', `The branch ${into} is checked out in ${worktree}: supervisor does not move a checked-out branch`, {
      details: { into, worktree, command },
      hint: `Run it there yourself: ${command}`,
    }),
  conflict: (into: string, branch: string, files: string[]) =>
    new SupervisorError('WORKFLOW_FINISH_CONFLICT', `Merging ${branch} into ${into} conflicts in: ${files.join(', ')}`, {
      details: { into, branch, files },
      hint: `Merge it by hand in a checkout of ${into}: git merge ${branch}`,
    }),
  badBranch: (into: string) => new SupervisorError('USAGE', `--into ${into}: not a valid branch name`, { details: { into } }),
  notABranchName: (into: string, why: string) =>
    new SupervisorError('WORKFLOW_FINISH_INTO', `--into ${into}: ${why}; --into takes the short name of a branch of yours`, {
      details: { into },
      hint: `Name the branch as git branch lists it, e.g. --into main (not refs/heads/main, @, a tag, or a supervisor/ branch)`,
    }),
};

/** The worktree (main checkout included) that has `branch` checked out, if any. */
async function checkedOutIn(ops: GitOps, branch: string): Promise<string | null> {
  const listed = await gitOrThrow(ops.repoRoot, ['worktree', 'list', '--porcelain'], ops.env);
  let path: string | null = null;
  for (const line of listed.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${branch}`) return path;
  }
  return null;
}

function message(store: WorkflowStore, id: string, squash: boolean): string {
  const plan = store.plan();
  const tasks = plan.tasks.map((t) => t.id);
  const body = plan.tasks.map((t) => `- ${t.id}: ${t.title.replace(/[\r\n]+/g, ' ')}`).join('\n');
  return `${squash ? 'Workflow' : 'Merge workflow'} ${id}: ${plan.name.replace(/[\r\n]+/g, ' ')}\n\n${body}\n\nSupervisor-Workflow: ${id}\nSupervisor-Task: ${tasks.join(', ')}\n`;
}

export async function finishWorkflow(ops: GitOps, id: string, options: { into?: string; squash?: boolean } = {}): Promise<FinishOutcome> {
  const store = new WorkflowStore(ops.repoRoot, id);
  if (!store.exists()) throw engineErrors.notFound(id, []);
  const result = store.result();
  if (!result || result.status !== 'pass') throw finishErrors.notPassed(id, result?.status ?? 'unfinished');
  // The branch by the workflow's id and its tip as checked against the engine's record (a CLI
  // can move the branch, or rewrite result.json): only the commit the workflow passed is handed on.
  const branch = integrationBranch(id);
  let tip: string;
  try {
    tip = await new IntegrationBranch(ops, branch).tip();
  } catch {
    throw engineErrors.notFound(`${id} (its branch ${branch} is gone)`, []);
  }
  if (tip !== result.git_range.split('..')[1]) throw finishErrors.notPassed(id, `not at the commit it passed (${branch} is at ${tip.slice(0, 12)}, the result names ${result.git_range})`);
  const base: FinishOutcome = { workflow_id: id, branch, tip, into: null, action: 'none', commit: null, command: null };
  if (!options.into) return { ...base, command: options.squash ? `git merge --squash ${shellWord(branch)} && git commit` : `git merge ${shellWord(branch)}` };
  const into = options.into;
  if (!(await git(ops.repoRoot, ['check-ref-format', '--branch', into], ops.env)).ok || into.startsWith('-')) throw finishErrors.badBranch(into);
  await refuseIntoName(ops, into);
  const outcome = { ...base, into };
  const current = await revParse(ops, `refs/heads/${into}`);
  const worktree = await checkedOutIn(ops, into);
  if (worktree !== null && current !== null) {
    const ff = await isAncestor(ops, current, tip);
    const command = options.squash ? `git -C ${shellWord(worktree)} merge --squash ${shellWord(branch)} && git -C ${shellWord(worktree)} commit` : `git -C ${shellWord(worktree)} merge ${ff ? '--ff-only' : '--no-ff'} ${shellWord(branch)}`;
    throw finishErrors.checkedOut(into, worktree, command);
  }
  let next: string;
  let action: FinishAction;
  if (current === null) {
    [next, action] = [tip, 'created'];
  } else if (await isAncestor(ops, tip, current)) {
    return { ...outcome, action: 'up_to_date', commit: current };
  } else if (!options.squash && (await isAncestor(ops, current, tip))) {
    [next, action] = [tip, 'fast_forward'];
  } else {
    const merged = await mergedTree(ops, current, tip);
    if (!merged.ok) throw finishErrors.conflict(into, branch, merged.conflicts);
    next = await commitTree(ops, merged.tree, options.squash ? [current] : [current, tip], message(store, id, options.squash === true));
    action = options.squash ? 'squashed' : 'merged';
  }
  // Compare-and-swap: created only if still missing (the all-zero old value), moved only from the value read.
  await gitOrThrow(ops.repoRoot, ['update-ref', '-m', `supervisor workflow finish ${id}`, `refs/heads/${into}`, next, current ?? (await zeroId(ops))], ops.env);
  store.append('handed_on', { into, action, commit: next, from: current, tip });
  return { ...outcome, action, commit: next };
}

export function renderFinish(outcome: FinishOutcome): string {
  const short = (sha: string | null) => (sha ? sha.slice(0, 7) : '-');
  if (!outcome.into) return `workflow ${outcome.workflow_id} passed: ${outcome.branch} at ${short(outcome.tip)}\nMerge it into your current branch with: ${outcome.command}\n`;
  const what: Record<FinishAction, string> = {
    none: '',
    created: `created at ${short(outcome.commit)}`,
    up_to_date: `already holds ${outcome.branch}`,
    fast_forward: `fast-forwarded to ${short(outcome.commit)}`,
    merged: `merged: ${short(outcome.commit)}`,
    squashed: `one squashed commit: ${short(outcome.commit)}`,
  };
  return `${outcome.into}: ${what[outcome.action]} (workflow ${outcome.workflow_id}, ${outcome.branch})\n`;
}

/** `--into` is a plain branch name: not a full refname, `@`/`HEAD`, a tag's name, or one of ours (supervisor/...). */
async function refuseIntoName(ops: GitOps, into: string): Promise<void> {
  if (into.startsWith('refs/')) throw finishErrors.notABranchName(into, 'a full refname');
  if (into === 'HEAD' || into === '@' || into.includes('@{')) throw finishErrors.notABranchName(into, 'a name git resolves to another branch');
  if (into === 'supervisor' || into.startsWith('supervisor/')) throw finishErrors.notABranchName(into, "a branch of supervisor's own (another run's or workflow's)");
  if (await revParse(ops, `refs/tags/${into}`)) throw finishErrors.notABranchName(into, 'the name of a tag');
}
