/**
 * The tools' input and output schemas (zod: what the MCP SDK takes and turns into the JSON
 * Schemas clients see). Outputs name the fields a caller relies on and let the rest through:
 * they are the same JSON `run --json`, `workflow run --json` and `runs show --json` print.
 */
import { z } from './sdk.ts';

const id = (what: string) => z.string().min(1).describe(what);
const money = (what: string) => z.number().positive().describe(what);
const count = (what: string) => z.number().int().positive().describe(what);
/** A CLI choice, as one name or a list (every tool takes both). */
const cliChoice = (what: string) => z.union([z.string(), z.array(z.string())]).optional().describe(what);

export const runInput = {
  role: id('Role name (roles_list)'),
  task: z.string().min(1).describe('The task, as text'),
  targets: z.array(z.string()).optional().describe('Files the task is about, relative to the repository'),
  cli: cliChoice("Adapter to use instead of the role's cli: claude, codex, gemini, cline, replay (offline) or a plugin's (a list of one is the same)"),
  base: z.string().optional().describe('Start the worktree from this commit or branch instead of HEAD'),
  review: z.string().optional().describe('Review <base>..<head>, or a branch (its commits since the merge base with base/HEAD)'),
  sandbox: z.string().optional().describe("Sandbox the CLI and gates run in: none, bwrap, docker, podman or a plugin's"),
  allow_hosts: z.array(z.string()).optional().describe('host:port entries the sandboxed CLI may reach, besides its model API'),
  max_cost_usd: money('Stop further attempts once the summed cost reaches this').optional(),
  timeout: count("Seconds before the CLI's process tree is ended").optional(),
};

export const runOutput = z.looseObject({
  run_id: z.string(),
  role: z.string(),
  cli: z.string(),
  status: z.enum(['pass', 'gaps', 'error']),
  exit_code: z.number(),
  output: z.record(z.string(), z.unknown()).nullable(),
  issues: z.array(z.string()),
  failure: z.looseObject({ class: z.string(), detail: z.string() }).nullable(),
  git_range: z.string().nullable(),
  branch: z.string().nullable(),
  files_changed: z.array(z.string()).nullable(),
  run_dir: z.string(),
});

const workflowDrive = {
  cli: cliChoice('Adapter for every role (NAME) or for one role (ROLE=NAME); one or a list'),
  allow_commands: z.array(z.string()).optional().describe('Commands every run\'s CLI may run, e.g. "npm test" ("*": any, only with a sandbox)'),
  allow_hosts: z.array(z.string()).optional().describe('host:port entries every sandboxed CLI may reach, besides its model API'),
  pass_env: z.array(z.string()).optional().describe('Variables of yours every sandboxed CLI and gate may see'),
  loosen: z.boolean().optional().describe("Let this call loosen the settings the workflow was started with (reported and recorded)"),
  jobs: count('Tasks at once').optional(),
  max_cost_usd: money('Stop starting runs once the summed cost reaches this').optional(),
  sandbox: z.string().optional().describe("Sandbox every run's CLI and gates run in"),
  wait: z.boolean().optional().describe('true (default): answer with the result when the workflow ends; false: answer with its id at once, the workflow goes on in the server (workflow_status)'),
};

export const workflowRunInput = { file: id('The plan file (workflow YAML or plan markdown), relative to the repository'), base: z.string().optional().describe('Commit or branch the integration branch starts from'), ...workflowDrive };
export const workflowResumeInput = { id: id('The workflow id, a unique part of it, or "last"'), ...workflowDrive };

const workflowTask = z.looseObject({ id: z.string(), status: z.string(), issues: z.array(z.string()) });

/** A finished workflow's result, or (wait: false) the id of one that goes on. */
export const workflowRunOutput = z.looseObject({
  workflow_id: z.string(),
  status: z.string().describe('pass | gaps | stopped | interrupted | awaiting_approval, running (wait: false), or recorded (a decision with resume: false)'),
  branch: z.string().optional(),
  tasks: z.array(workflowTask).optional(),
});

export const workflowIdInput = { id: id('The workflow id, a unique part of it, or "last"') };

export const workflowStatusOutput = z.looseObject({
  workflow_id: z.string(),
  name: z.string(),
  status: z.string().describe('pass | gaps | stopped | interrupted | awaiting_approval | running | killed'),
  branch: z.string().nullable(),
  tasks: z.array(z.looseObject({ id: z.string(), status: z.string(), rounds: z.number(), issues: z.array(z.string()), runs: z.array(z.looseObject({ run_id: z.string(), role: z.string() })) })),
  metrics: z.looseObject({ cost_usd: z.number() }),
});

export const workflowShowInput = {
  id: id('The workflow id, a unique part of it, or "last"'),
  task: z.string().optional().describe('Only this task (default: every task)'),
  diff: z.boolean().optional().describe("With each task's change (its diff, capped at 200 KB)"),
};

export const workflowShowOutput = z.looseObject({
  workflow_id: z.string(),
  status: z.string(),
  tasks: z.array(
    z.looseObject({
      id: z.string(),
      title: z.string(),
      task: z.string(),
      status: z.string(),
      issues: z.array(z.string()),
      round_details: z.array(z.looseObject({ round: z.number(), runs: z.array(z.looseObject({ run_id: z.string(), role: z.string(), status: z.string() })) })),
    }),
  ),
});

const decisionInput = {
  id: id('The workflow id, a unique part of it, or "last"'),
  tasks: z.array(z.string().min(1)).min(1).describe('The tasks waiting for approval to decide on'),
  resume: z.boolean().optional().describe('Continue the workflow after recording the decision (default true)'),
  ...workflowDrive,
};
export const workflowApproveInput = decisionInput;
export const workflowRejectInput = { ...decisionInput, issues: z.array(z.string().min(1)).min(1).describe("What the worker must fix: its next round's feedback") };

export const workflowCheckInput = {
  file: id('The plan file, relative to the repository'),
  cli: cliChoice('Check with this adapter for every role (NAME), or for one role (ROLE=NAME)'),
  sandbox: z.string().optional().describe('Check with this sandbox for every run'),
  allow_commands: z.array(z.string()).optional().describe('As workflow_run allow_commands ("*" needs a sandbox)'),
};
export const workflowCheckOutput = z.looseObject({ id: z.string(), name: z.string(), tasks: z.array(z.looseObject({ id: z.string(), title: z.string() })) });

export const runsListInput = {
  limit: count('At most this many runs (default 50)').optional(),
  role: z.string().optional().describe('Only runs of this role'),
  status: z.enum(['pass', 'gaps', 'error', 'running', 'incomplete']).optional().describe('Only runs with this status'),
};
export const runsListOutput = z.object({ runs: z.array(z.looseObject({ run_id: z.string(), state: z.string(), status: z.string().nullable() })) });

export const runsShowInput = { id: id('A run id, a unique part of one, or "last"') };
export const runsShowOutput = z.looseObject({ run_id: z.string(), state: z.string(), status: z.string().nullable(), result: runOutput.nullable(), events: z.array(z.looseObject({ kind: z.string() })) });

export const rolesListOutput = z.object({ roles: z.array(z.looseObject({ name: z.string(), file: z.string() })) });
export const rolesShowInput = { name: id('Role name') };
export const rolesShowOutput = z.looseObject({ name: z.string(), chain: z.array(z.string()) });
