/**
 * The task text each run of a task gets: the plan's task, and in later rounds what the
 * reviewers said or which files conflict. The role's own prompt wraps it as for `run`.
 */
import type { WorkflowTask } from '../model.ts';

function header(task: WorkflowTask): string[] {
  const lines = [`# Task ${task.id}: ${task.title}`, '', `Task id: ${task.id}`];
  if (task.files.length) lines.push(`Files: ${task.files.join(', ')}`);
  return [...lines, '', task.task.trim()];
}

export interface WorkerRound {
  round: number;
  /** The reviewers' issues (or the workflow gate's output) from the round before, by who said them. */
  feedback: { role: string; issues: string[] }[];
  /** The integration branch moved and merging it conflicts in these files (the merge is in progress). */
  conflicts: string[];
}

export function workerPrompt(task: WorkflowTask, round: WorkerRound): string {
  const lines = header(task);
  if (round.feedback.length) {
    lines.push('', `## Review feedback (round ${round.round})`, '', 'Your previous round did not pass review or the workflow\'s gates. Fix every issue below, then commit:', '');
    for (const { role, issues } of round.feedback) for (const issue of issues) lines.push(`- [${role}] ${issue}`);
  }
  if (round.conflicts.length) {
    lines.push(
      '',
      '## Merge conflict',
      '',
      'Other tasks were integrated meanwhile, and merging the integration branch into your branch conflicts.',
      'The merge is in progress in this worktree. Resolve the conflict markers in these files, keeping the',
      'intent of both sides, then commit the merge:',
      '',
      ...round.conflicts.map((file) => `- ${file}`),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function reviewerPrompt(task: WorkflowTask, range: string, mismatch: string | null = null): string {
  const lines = [...header(task), '', `## What to review`, '', `The change of task ${task.id} (commits ${range}), against the task above as its specification.`];
  if (mismatch) lines.push('', '## What the worker claimed', '', `The worker's answer and git disagree: ${mismatch}. Judge the change git shows, not the claim.`);
  return `${lines.join('\n')}\n`;
}
