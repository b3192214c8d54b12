/**
 * The one workflow model every plan reader produces and the workflow engine runs. It is also
 * what `.supervisor/workflows/<id>/plan.json` holds, so field names are snake_case like the
 * workflow YAML a person writes (one shape from file to engine to disk, no conversion).
 *
 * Plan readers (plugins) return a `WorkflowInput`; the core fills defaults and checks it
 * (unknown fields, duplicate ids, unknown dependencies, cycles, unknown roles and CLIs)
 * before anything runs, and hands the engine a `Workflow`.
 */

/** Where a task or field came from, for error messages: the plan file and a JSON pointer. */
export interface SourceRef {
  file: string;
  /** JSON pointer into the normalised plan, e.g. `/tasks/2/depends_on/0`. */
  pointer: string;
  /** 1-based line in the plan file, when the reader knows it. */
  line?: number;
}

export interface WorkflowTask {
  /** Unique within the workflow; [A-Za-z0-9._-]+ (it names a branch). */
  id: string;
  title: string;
  /** The task text handed to the worker (never empty). */
  task: string;
  /** Files the task concerns; passed to the worker as targets when they exist. */
  files: string[];
  /** Ids of tasks that must be integrated before this one starts. */
  depends_on: string[];
  /** The worker role (default: the workflow's `defaults.worker`). */
  worker: string;
  /** Reviewer roles, run in order on the task's range after each worker round (may be empty). */
  reviewers: string[];
  /**
   * Adapter name. Loading resolves it: the task's own `cli`, else its own `model` through the
   * model table (model-cli.ts), else `defaults.cli`, else `defaults.model` through the table;
   * null: the role's own.
   */
  cli: string | null;
  /** Model name handed to the adapter as `x-model` does; null: the role's own. */
  model: string | null;
  /** Gate commands for this task's worker runs (beside the role's own). */
  gates: string[];
  /** Shell commands run in the task's worktree after it is checked out, before the first run (default: `defaults.setup`). */
  setup?: string[];
  /** Untracked paths copied from the user's checkout into the worktree before set-up (default: `defaults.copy`). */
  copy?: string[];
  /** Commands its runs may run, besides the roles' and --allow-command (default: `defaults.allowed_commands`); absent: none. */
  allowed_commands?: string[];
  /** Worker rounds at most (review gaps send the task back). */
  max_rounds: number;
  /** Held in `awaiting_approval` after its reviewers pass, until a person approves or rejects it. */
  approve: boolean;
}

export interface WorkflowDefaults {
  worker: string;
  reviewers: string[];
  cli: string | null;
  model: string | null;
  max_rounds: number;
  approve: boolean;
  /** Optional (absent in plans recorded before set-up existed): read as []. */
  setup?: string[];
  copy?: string[];
  /** Commands every task's runs may run (plain words, SECURITY.md); absent: none. */
  allowed_commands?: string[];
}

/** How an integrated task lands on the integration branch: a merge commit of its branch, or one squashed commit. */
export type MergeStyle = 'merge' | 'squash';

export interface Workflow {
  /** Stable id: `<name-slug>-<short hash of the normalised plan>` unless the plan names one. */
  id: string;
  /** Human title (the plan's heading or the YAML `name`). */
  name: string;
  /** The plan file as given (absolute path) and the reader that read it. */
  source: { file: string; reader: string };
  /** Commit or branch the integration branch starts from; null: the repository's HEAD. */
  base: string | null;
  /** Tasks run at once at most; null: the engine's default (2). */
  jobs: number | null;
  /** Gate commands run on the integration branch after every integrated task. */
  gates: string[];
  /** When the gates decide: `merge` (default) tests every task's merge before the integration branch moves (a merge queue); `end` merges first and runs them on the integration branch after. */
  gates_on: 'merge' | 'end';
  /** Cost ceiling over every run of the workflow; null: none. */
  max_cost_usd: number | null;
  /** A slot reused from task to task runs the same set-up once (true), or again for every task (false). */
  setup_once?: boolean;
  /** Seconds each set-up command may take; null: the default (900). */
  setup_timeout?: number | null;
  defaults: WorkflowDefaults;
  /** Which of `defaults.setup` / `defaults.copy` the plan wrote at its top level (`setup:`): named there in messages. */
  top_level?: ('setup' | 'copy')[];
  /** Model name pattern (glob, e.g. `claude-*`) → adapter name; overrides the built-in table. */
  models: Record<string, string>;
  /** `merge` (default): a merge commit of the task branch; `squash`: one commit with the task's change. */
  merge: MergeStyle;
  /** Shell commands run for every workflow event (the event as one JSON line on stdin). */
  on_event: string[];
  tasks: WorkflowTask[];
}

/** What a plan reader returns: every field but the tasks' ids, titles and texts may be left out. */
export type WorkflowInput = Partial<Omit<Workflow, 'tasks' | 'defaults' | 'source' | 'top_level'>> & {
  /** Shorthand for `defaults.setup` / `defaults.copy` (the defaults' win when both are given). */
  setup?: string[];
  copy?: string[];
  defaults?: Partial<WorkflowDefaults>;
  tasks: (Partial<WorkflowTask> & Pick<WorkflowTask, 'id' | 'title' | 'task'>)[];
};
