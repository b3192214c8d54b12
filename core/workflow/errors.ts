/**
 * Every error of loading a workflow: a SupervisorError with a stable WORKFLOW_* code (all exit
 * 2) naming the plan file, the task and the field (JSON pointer into the normalised plan, and
 * the line in the plan file when the reader knows it). Codes are API: add freely, never rename.
 */
import { isSupervisorError, SupervisorError } from '../errors.ts';

/** One problem of a plan: where it is and what is wrong. */
export interface WorkflowProblem {
  /** Stable code of this kind of problem, e.g. WORKFLOW_CYCLE. */
  code: string;
  /** JSON pointer into the plan ("" for the whole plan), e.g. "/tasks/2/depends_on/0". */
  pointer: string;
  message: string;
  /** Id of the task the pointer is in, when it is in one. */
  task?: string;
  /** 1-based line in the plan file, when known. */
  line?: number;
  hint?: string;
}

const HINTS: Record<string, string> = {
  WORKFLOW_YAML: 'Fix the YAML syntax; a workflow file is one YAML mapping (name, tasks, ...). Every field: supervisor workflow schema.',
  WORKFLOW_INVALID: 'Fix the fields listed; `supervisor workflow check <file>` checks a plan without running it.',
  WORKFLOW_NO_TASKS: 'A plan needs at least one task.',
  WORKFLOW_EMPTY_TASK: 'Give every task the text the worker is to act on.',
  WORKFLOW_BAD_ID: 'Ids name git branches: use letters, digits, ".", "_" and "-" (never "--"), starting with a letter or digit.',
  WORKFLOW_DUPLICATE_TASK: 'Give each task its own id.',
  WORKFLOW_UNKNOWN_DEPENDENCY: 'depends_on names ids of tasks of the same plan.',
  WORKFLOW_CYCLE: 'Tasks cannot wait for each other in a circle: remove one of these dependencies.',
  WORKFLOW_UNKNOWN_CLI: 'Use a registered adapter (supervisor plugins list), or add an adapter plugin.',
  WORKFLOW_UNKNOWN_MODEL: 'Name the CLI with `cli:`, or map the model to one under `models:` (e.g. models: { "my-*": codex }).',
  WORKFLOW_UNKNOWN_ROLE: 'Use a role from `supervisor roles list`, or add one as .supervisor/roles/<name>.yaml.',
  WORKFLOW_ROLE_INVALID: 'Fix the role (supervisor roles validate), or use another one.',
  WORKFLOW_BAD_PATH: 'Files are paths relative to the repository root, inside it.',
};

/** "file:12: task "b": /tasks/1/depends_on/0: message" */
export function formatProblem(file: string, problem: WorkflowProblem): string {
  const where = problem.line ? `${file}:${problem.line}` : file;
  const task = problem.task !== undefined ? `task "${problem.task}": ` : '';
  return `${where}: ${task}${problem.pointer || '/'}: ${problem.message}`;
}

export const workflowErrors = {
  /** Every problem found, under the first one's code; details name the first one's task, field and line. */
  invalid: (file: string, problems: WorkflowProblem[], reader?: string) => {
    const first = problems[0]!;
    const message = problems.length === 1
      ? `Invalid workflow ${formatProblem(file, first)}`
      : `Invalid workflow ${file} (${problems.length} problems):\n${problems.map((p) => `  ${formatProblem(file, p)}`).join('\n')}`;
    return new SupervisorError(first.code, message, {
      hint: first.hint ?? HINTS[first.code],
      details: {
        file,
        ...(first.task !== undefined ? { task: first.task } : {}),
        pointer: first.pointer,
        ...(first.line !== undefined ? { line: first.line } : {}),
        ...(reader ? { reader } : {}),
        problems,
      },
    });
  },

  tooLarge: (file: string, bytes: number, limit: number) =>
    new SupervisorError('WORKFLOW_TOO_LARGE', `${file} is ${bytes} bytes; plan files are limited to ${limit} bytes`, {
      details: { file, bytes, limit },
      hint: 'Split the plan into several workflows.',
    }),

  noReader: (file: string, readers: { name: string; extensions: string[] }[]) =>
    new SupervisorError('WORKFLOW_NO_READER', `No plan reader reads ${file}`, {
      details: { file, readers },
      hint: readers.length
        ? `Plan readers: ${readers.map((r) => `${r.name}${r.extensions.length ? ` (${r.extensions.join(', ')})` : ''}`).join(', ')}. Name one with --reader, or rename the file.`
        : 'No plan-reader plugins are loaded.',
    }),

  /** A reader's own failure (not a SupervisorError) becomes PLUGIN_HOOK naming the reader and the file. */
  readerFailed: (reader: string, hook: string, file: string, cause: unknown) => {
    if (isSupervisorError(cause)) return cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    return new SupervisorError('PLUGIN_HOOK', `Plan reader "${reader}" failed in ${hook} on ${file}: ${message}`, {
      details: { plugin: reader, hook, file },
      cause,
      hint: 'Fix the plan reader plugin, or choose another reader with --reader.',
    });
  },

  readerOutput: (file: string, reader: string, problems: WorkflowProblem[]) =>
    workflowErrors.invalid(file, problems.map((p) => ({ ...p, hint: `The plan reader "${reader}" returned a plan of the wrong shape; fix the reader or the plan.` })), reader),
} as const;
