/**
 * `workflow show <id> <task>`: one task as a person reviews it before approving it: its text,
 * its rounds (each run with role, CLI, status, cost, duration and id), the reviewers' issues
 * per round, the workflow gates run after its merge, its conflicts and decisions, and its change
 * (the diff of its range, capped). Read from the events, the runs' results and git; nothing moves.
 */
import { git } from '../git/git.ts';
import { readRun } from './runs-store.ts';
import type { GitOps } from '../workflow/engine/git-ops.ts';
import { mergeBase, revParse } from '../workflow/engine/git-ops.ts';
import { engineErrors } from '../workflow/engine/errors.ts';
import { integrationBranch } from '../workflow/engine/names.ts';
import { foldEvents, type TaskFold } from '../workflow/engine/state.ts';
import { WorkflowStore } from '../workflow/engine/store.ts';
import { taskViewsOf, type WorkflowRunRecord, type WorkflowTaskView } from '../workflow/engine/task-view.ts';

/** The diff shown at most (bytes); the rest is cut with a notice. */
export const DIFF_CAP_BYTES = 200_000;

export interface TaskRound {
  round: number;
  runs: (WorkflowRunRecord & { issues: string[] })[];
  /** What the reviewers (or the worker) said was missing this round, by role. */
  issues: { role: string; issues: string[] }[];
}

export interface TaskDiff {
  /** `base..head`, full ids. */
  range: string;
  text: string;
  truncated: boolean;
  /** The whole diff's size in bytes. */
  bytes: number;
  /** Set when the diff was cut. */
  notice: string | null;
}

export interface TaskShow extends WorkflowTaskView {
  workflow_id: string;
  task: string;
  files: string[];
  worker: string;
  reviewers: string[];
  approve: boolean;
  round_details: TaskRound[];
  gates: { command: string; passed: boolean; exit_code: number | null; output_tail: string | null; tip: string }[];
  conflicts: { files: string[]; tip: string; at: string }[];
  approvals: { decision: string; by: string; issues: string[]; at: string }[];
  diff: TaskDiff | null;
}

function roundsOf(repoRoot: string, view: WorkflowTaskView): TaskRound[] {
  const byRound = new Map<number, TaskRound>();
  for (const run of view.runs) {
    const round = byRound.get(run.round) ?? { round: run.round, runs: [], issues: [] };
    byRound.set(run.round, round);
    let issues: string[] = [];
    try {
      issues = readRun(repoRoot, run.run_id).result?.issues ?? [];
    } catch {
      // a run folder removed by gc: the run is still listed, without its issues
    }
    round.runs.push({ ...run, issues });
    if (run.status !== 'pass' && issues.length) round.issues.push({ role: run.role, issues });
  }
  return [...byRound.values()].sort((a, b) => a.round - b.round);
}

/** The task's change: its head against where it left the integration branch (before its own merge). */
async function taskDiff(ops: GitOps, id: string, view: WorkflowTaskView, merged: TaskFold['merged'], cap: number): Promise<TaskDiff | null> {
  const head = merged ? merged.head : await revParse(ops, `refs/heads/${view.branch}`);
  if (!head) return null;
  const other = merged && merged.tip !== head ? await revParse(ops, `${merged.tip}^1`) : await revParse(ops, `refs/heads/${integrationBranch(id)}`);
  const base = other ? await mergeBase(ops, other, head).catch(() => head) : head;
  const diff = await git(ops.repoRoot, ['-c', 'core.quotePath=false', 'diff', '--no-ext-diff', '--no-textconv', '--stat', '--patch', `${base}..${head}`], ops.env);
  const bytes = Buffer.byteLength(diff.stdout);
  const truncated = bytes > cap;
  const text = truncated ? Buffer.from(diff.stdout).subarray(0, cap).toString('utf8') : diff.stdout;
  return { range: `${base}..${head}`, text, truncated, bytes, notice: truncated ? `the diff is ${bytes} bytes; the first ${cap} are shown (all of it: git diff ${base.slice(0, 7)}..${head.slice(0, 7)})` : null };
}

export async function showTask(ops: GitOps, id: string, taskId: string, options: { diff?: boolean; cap?: number } = {}): Promise<TaskShow> {
  const store = new WorkflowStore(ops.repoRoot, id);
  if (!store.exists()) throw engineErrors.notFound(id, []);
  const plan = store.plan();
  const task = plan.tasks.find((t) => t.id === taskId);
  if (!task) throw engineErrors.taskNotFound(id, taskId, plan.tasks.map((t) => t.id));
  const state = foldEvents(plan, store.events());
  const view = taskViewsOf(plan, state).find((t) => t.id === taskId)!;
  const fold = state.tasks.get(taskId)!;
  return {
    workflow_id: id,
    ...view,
    task: task.task,
    files: task.files,
    worker: task.worker,
    reviewers: task.reviewers,
    approve: task.approve === true,
    round_details: roundsOf(ops.repoRoot, view),
    gates: state.gateRuns.filter((g) => g.tip === fold.merged?.tip).map(({ command, passed, exit_code, output_tail, tip }) => ({ command, passed, exit_code, output_tail, tip })),
    conflicts: fold.conflicts.map((c) => ({ ...c, files: [...c.files] })),
    approvals: fold.approvals.map((a) => ({ ...a, issues: [...a.issues] })),
    diff: options.diff === false ? null : await taskDiff(ops, id, view, fold.merged, options.cap ?? DIFF_CAP_BYTES),
  };
}
