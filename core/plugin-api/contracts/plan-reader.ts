/** The plan-reader contract: a plan file → the one workflow model; the core fills defaults and checks it. */
import type { WorkflowInput } from '../workflow-model.ts';
import type { SupervisorError } from '../../errors.ts';

export type { WorkflowInput, Workflow, WorkflowTask, WorkflowDefaults } from '../workflow-model.ts';

/** A problem a plan reader found, for `ctx.error`: where it is in the plan and what is wrong. */
export interface PlanProblem {
  message: string;
  /** JSON pointer into the plan the reader returns, e.g. "/tasks/2/depends_on"; "" or absent: the whole plan. */
  pointer?: string;
  /** 1-based line in the plan file; absent: the line recorded for the pointer (ctx.locate), if any. */
  line?: number;
  /** Id (or heading) of the task the problem is in. */
  task?: string;
  hint?: string;
}

export interface PlanReadContext {
  /** Absolute path of the plan file (for messages; the core has read its text already). */
  file: string;
  /** A one-line notice for the user (stderr). */
  notice(message: string): void;
  /**
   * Records that the value at `pointer` of the returned plan (e.g. "/tasks/0") starts at `line`,
   * so the core's errors (cycles, unknown roles, ...) can name the line. A pointer without a
   * line of its own takes its nearest recorded ancestor's.
   */
  locate(pointer: string, line: number): void;
  /**
   * Parses YAML strictly (duplicate keys, unknown tags, several documents and alias bombs
   * refused) and requires a mapping at the top; throws WORKFLOW_YAML naming the file, line and
   * column. `lines` maps the JSON pointer of every node to its line (give them to `locate`
   * when the plan keeps the YAML's shape).
   */
  parseYaml(text: string): { value: Record<string, unknown>; lines: ReadonlyMap<string, number> };
  /**
   * Checks a value against a JSON Schema; throws WORKFLOW_INVALID listing every violation with
   * its pointer, task and line, and a "did you mean" for unknown fields.
   */
  validate(schema: Readonly<Record<string, unknown>>, value: unknown): void;
  /** An error for a problem in the plan (WORKFLOW_INVALID): names the file, task, pointer and line. */
  error(problem: PlanProblem): SupervisorError;
}

export interface PlanReaderHooks {
  /** File name endings this reader reads, with the dot (".yaml"); used when no reader's detect() claims the file. */
  extensions?: string[];
  /** Whether this reader recognises the file (by its name or its text); tried before extensions. Must not throw. */
  detect?(file: string, text: string): boolean;
  /**
   * Reads the plan's text into the workflow model. Only the tasks' id, title and task text are
   * needed; the core fills the rest with defaults, checks the result (shape, ids, dependencies,
   * cycles, roles, CLIs) and refuses a bad plan before anything runs. Throw `ctx.error(...)`
   * for problems in the file.
   */
  read(text: string, ctx: PlanReadContext): WorkflowInput | Promise<WorkflowInput>;
}
