/**
 * The task text each run of a task gets: the plan's task, and in later rounds what the
 * reviewers said or which files conflict. The role's own prompt wraps it as for `run`.
 */
import type { WorkflowTask } from '../../plugin-api/workflow-model.ts';

function header(task: WorkflowTask): string[] {
  const lines = [`# Task ${task.id}: ${task.title}`, '', `Task id: ${task.id}`];
  if (task.files.length) lines.push(`Files: ${task.files.join(', ')}`);
  return [...lines, '', task.task.trim()];
}

export interface WorkerRound {
  round: number;
  /** The commit the worker's worktree is at when the round starts. */
  start?: string;
  /** Commands the CLI may run (the run's allowed_commands / --allow-command); ["*"]: any. */
  allowedCommands?: readonly string[];
  /** The checks supervisor runs after the worker (the task's gates). */
  gates?: readonly string[];
  /** The reviewers' issues (or the workflow gate's output) from the round before, by who said them. */
  feedback: { role: string; issues: string[] }[];
  /** The integration branch moved and merging it conflicts in these files (the merge is in progress). */
  conflicts: string[];
}

/**
 * How the round works: supervisor, not the model, commits and runs the gates (the CLIs' own
 * permissions often forbid git), and the tests the worker may run are named.
 */
function howItWorks(round: WorkerRound): string[] {
  const lines = ['', '## How this round works', ''];
  if (round.start) lines.push(`Your worktree starts at commit ${round.start}.`);
  lines.push('Supervisor commits everything you change in the worktree when you finish and records the commit range itself: you need not run git.');
  const gates = round.gates ?? [];
  if (gates.length) lines.push(`Then it runs these checks: ${gates.map((g) => `\`${g}\``).join(', ')}.`);
  const allowed = round.allowedCommands ?? [];
  if (allowed.includes('*')) lines.push('You may run any command inside the worktree: run the tests before you finish.');
  else if (allowed.length) lines.push(`You may run: ${allowed.map((c) => `\`${c}\``).join(', ')}. Run the tests among them before you finish.`);
  else lines.push('You may not be allowed to run commands: say in your report what you could not run or verify.');
  return lines;
}

export function workerPrompt(task: WorkflowTask, round: WorkerRound): string {
  const lines = [...header(task), ...howItWorks(round)];
  if (round.feedback.length) {
    lines.push('', `## Review feedback (round ${round.round})`, '', 'Your previous round did not pass review or the workflow\'s gates. Fix every issue below:', '');
    for (const { role, issues } of round.feedback) for (const issue of issues) lines.push(`- [${role}] ${issue}`);
  }
  if (round.conflicts.length) {
    lines.push(
      '',
      '## Merge conflict',
      '',
      'Other tasks were integrated meanwhile, and merging the integration branch into your branch conflicts.',
      'The merge is in progress in this worktree. Resolve the conflict markers in these files, keeping the',
      'intent of both sides (supervisor commits the merge when you finish):',
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
