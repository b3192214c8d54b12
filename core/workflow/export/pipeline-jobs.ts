/**
 * The job model both CI generators share (issue 29): one job per task, `needs` from the plan's
 * `depends_on`, and a final job needing every task. Each job runs the same binary with the same
 * words: `workflow task <id> <task>|--final --plan <path> --plan-sha256 <hex> --remote <name>` and
 * the recorded settings export was given. Pure: same spec, same jobs, in the plan's order.
 */
import type { Workflow } from '../../plugin-api/workflow-model.ts';
import { shellWord } from '../../text/shell-word.ts';

/** What a generator needs: the plan's tasks and what export decided for the jobs. */
export interface PipelineSpec {
  workflow: Pick<Workflow, 'id' | 'name' | 'tasks'>;
  /** The plan as the jobs read it: its path relative to the repository root, and the sha256 of its bytes. */
  plan: { path: string; sha256: string };
  /** The remote every job integrates on; null: `${SUPERVISOR_REMOTE:-origin}`, chosen on the runner. */
  remote: string | null;
  /** The drive flags every job passes on (the recorded settings, `--trust`), as argv words. */
  flags: string[];
  /** Job time limits in minutes: per task id, and for the final job. */
  timeouts: { tasks: Record<string, number>; final: number };
  /** What a runner needs: the CLIs' programs, and the variables holding their keys (names only, never values). */
  runner: { clis: string[]; secrets: string[]; finalSecrets: string[] };
}

export interface PipelineJob {
  /** The job's name in the pipeline file. */
  name: string;
  /** The task it runs; null: the final job. */
  task: string | null;
  /** Names of the jobs it waits for. */
  needs: string[];
  timeoutMinutes: number;
  /** The one shell line the job runs. */
  command: string;
  /** Variables the job is given from CI secrets, by name. */
  secrets: string[];
}

/** The binary on the runner: `supervisor` on PATH, or what SUPERVISOR names. */
export const SUPERVISOR_BINARY = '"${SUPERVISOR:-supervisor}"';
export const DEFAULT_REMOTE = '"${SUPERVISOR_REMOTE:-origin}"';
export const FINAL_JOB = 'final';

/** The words after `workflow task <id>` every job shares. */
function commonWords(spec: PipelineSpec): string[] {
  const remote = spec.remote === null ? DEFAULT_REMOTE : shellWord(spec.remote);
  return ['--plan', shellWord(spec.plan.path), '--plan-sha256', spec.plan.sha256, '--remote', remote, ...spec.flags.map(shellWord)];
}

export function taskCommand(spec: PipelineSpec, taskId: string): string {
  return [SUPERVISOR_BINARY, 'workflow', 'task', shellWord(spec.workflow.id), shellWord(taskId), ...commonWords(spec)].join(' ');
}

export function finalCommand(spec: PipelineSpec): string {
  return [SUPERVISOR_BINARY, 'workflow', 'task', shellWord(spec.workflow.id), '--final', ...commonWords(spec)].join(' ');
}

/**
 * The jobs, tasks in the plan's order then the final one. `jobName` maps a task id to a job
 * name valid in the engine's file (distinct ids must give distinct names).
 */
export function pipelineJobs(spec: PipelineSpec, jobName: (taskId: string) => string): PipelineJob[] {
  const names = new Map(spec.workflow.tasks.map((t) => [t.id, jobName(t.id)]));
  const nameOf = (id: string) => names.get(id) ?? jobName(id);
  const tasks: PipelineJob[] = spec.workflow.tasks.map((t) => ({
    name: nameOf(t.id),
    task: t.id,
    needs: t.depends_on.map(nameOf),
    timeoutMinutes: spec.timeouts.tasks[t.id] ?? spec.timeouts.final,
    command: taskCommand(spec, t.id),
    secrets: spec.runner.secrets,
  }));
  const final: PipelineJob = {
    name: FINAL_JOB,
    task: null,
    needs: tasks.map((j) => j.name),
    timeoutMinutes: spec.timeouts.final,
    command: finalCommand(spec),
    secrets: spec.runner.finalSecrets,
  };
  return [...tasks, final];
}

/** A path in a comment: no control character may end the comment's line. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, '?');
}

/** The comment every pipeline file starts with: where it came from, and what a runner needs. */
export function headerLines(spec: PipelineSpec, engineNotes: string[]): string[] {
  const { runner } = spec;
  const lines = [
    `Made by \`supervisor workflow export\` from the plan ${oneLine(spec.plan.path)} (workflow ${spec.workflow.id}).`,
    `Plan sha256: ${spec.plan.sha256} (every job refuses another plan: export again after changing it).`,
    `One job per task (needs: the plan's depends_on) and a final job (the plan's gates, the result).`,
    'Every job integrates on the shared remote by compare-and-swap; re-running a job is safe.',
    'A runner needs:',
    '  - git, and push rights to the remote (the integration branch supervisor/wf/<id>, refs/supervisor/*)',
    '  - the supervisor binary on PATH, or its path in the variable SUPERVISOR',
    `  - the CLIs the plan runs: ${runner.clis.length ? runner.clis.join(', ') : 'none'}`,
    `  - their keys as CI secrets, by name: ${runner.secrets.length ? runner.secrets.join(', ') : 'none'}`,
    ...engineNotes,
    `Watch from any clone: supervisor workflow status ${spec.workflow.id} --remote origin`,
  ];
  return lines.map((line) => `# ${line}`.trimEnd());
}
