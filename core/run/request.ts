/** The adapter's view of one attempt (CommandRequest), shared by real runs and --dry-run. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withoutExtensions } from '../output/verdict.ts';
import type { AdapterContext, CommandRequest, CommandSpec, WorktreeGit } from '../plugin-api/contracts.ts';
import { callHook } from '../plugins/call-hook.ts';
import type { RunRoleOptions } from './options.ts';
import { roleEditsFiles, type PreparedRun } from './prepare.ts';

export interface RequestInput {
  prompt: string;
  cwd: string;
  git?: WorktreeGit;
  scratchDir: string;
  attempt: number;
  maxBudgetUsd?: number;
}

export function buildRequest(prepared: PreparedRun, input: RequestInput): CommandRequest {
  const { role, adapter, built } = prepared;
  let outputSchema: CommandRequest['outputSchema'];
  if (adapter.acceptsOutputSchema) {
    // The CLI gets the schema as a file of its own, inside the attempt's scratch folder.
    const file = join(input.scratchDir, 'output-schema.json');
    // Without supervisor's own keywords (x-verdict): CLIs with strict schema checks refuse them.
    const schema = withoutExtensions(built.outputSchema.schema);
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    outputSchema = { name: built.outputSchema.name, schema, file };
  }
  const model = role.extensions['x-model'];
  return {
    prompt: input.prompt,
    cwd: input.cwd,
    ...(input.git ? { git: input.git } : {}),
    scratchDir: input.scratchDir,
    ...(outputSchema ? { outputSchema } : {}),
    instructionFiles: built.instructionFiles,
    flags: role.flags,
    ...(typeof model === 'string' ? { model } : {}),
    config: role.config,
    allowEdits: roleEditsFiles(role),
    // Settled by prepareRun: the role's and --allow-command's, "*" only with a sandbox.
    allowedCommands: role.allowed_commands,
    sandboxed: prepared.sandbox.choice.name !== 'none',
    ...(input.maxBudgetUsd !== undefined && adapter.acceptsBudget ? { maxBudgetUsd: input.maxBudgetUsd } : {}),
    stream: false,
    attempt: input.attempt,
    role: {
      name: role.name,
      baseRole: role.base_role,
      extensions: role.extensions,
      extensionFiles: Object.fromEntries(Object.keys(role.extensions).flatMap((key) => (role.sources[key] ? [[key, role.sources[key]]] : []))),
    },
    ...(prepared.exampleAnswer === undefined ? {} : { exampleAnswer: prepared.exampleAnswer }),
  };
}

export function adapterContext(prepared: PreparedRun, env: Record<string, string | undefined>, notice: (m: string) => void): AdapterContext {
  return { env: Object.freeze({ ...env }), self: prepared.peers.self, notice };
}

/** Calls adapter.command under its time limit, attributing a throw or a wrong shape to the adapter. */
export function commandFor(prepared: PreparedRun, request: CommandRequest, ctx: AdapterContext): Promise<CommandSpec> {
  return callHook(prepared.adapter, 'command', () => prepared.adapter.command(request, ctx));
}

/** What the adapter adds to the caller's environment: its quiet settings, then the command's own. */
export function commandEnv(prepared: PreparedRun, spec: CommandSpec): Record<string, string> {
  return { ...prepared.adapter.quietEnv, ...spec.env };
}

/** What every process of a run (the CLI and the gates) learns about the run it belongs to. */
export function runEnv(runId: string, attempt: number): Record<string, string> {
  return { SUPERVISOR_RUN_ID: runId, SUPERVISOR_ATTEMPT: String(attempt) };
}

/** The CLI's environment: the caller's, then the adapter's additions, then the run's. */
export function cliEnv(
  prepared: PreparedRun,
  base: Record<string, string | undefined>,
  spec: CommandSpec,
  run: { runId: string; attempt: number },
): Record<string, string | undefined> {
  return { ...base, ...commandEnv(prepared, spec), ...runEnv(run.runId, run.attempt) };
}

/** What the CLI and gates learn about the run's role and workflow, beside SUPERVISOR_RUN_ID. */
export function roleEnv(role: string, workflow: RunRoleOptions['workflow']): Record<string, string> {
  const env: Record<string, string> = { SUPERVISOR_ROLE: role };
  if (workflow) {
    env.SUPERVISOR_WORKFLOW_ID = workflow.id;
    env.SUPERVISOR_TASK_ID = workflow.task;
    env.SUPERVISOR_ROUND = String(workflow.round);
    if (workflow.stateDir) env.SUPERVISOR_WORKFLOW_DIR = workflow.stateDir;
  }
  return env;
}
