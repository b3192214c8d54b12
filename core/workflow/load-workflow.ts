/**
 * loadWorkflow: plan file → plan reader (by name, else the first whose detect() claims the file,
 * else by extension; users' readers before built-ins) → shape check (a reader is untrusted) →
 * defaults → checks (ids, dependencies, cycles, files, CLIs, models, roles). A bad plan is
 * refused here, before anything runs, with errors that name the file, task, field and line.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { errors, isSupervisorError } from '../errors.ts';
import { callHook, isPluginFault } from '../plugins/call-hook.ts';
import type { PlanReaderPlugin } from '../plugin-api/contracts.ts';
import type { PluginEntry, Registry } from '../registry.ts';
import { loadRole } from '../roles/load-role.ts';
import { roleLoadOptions } from '../roles/load-options.ts';
import { roleUses, structureProblems } from './check-workflow.ts';
import { workflowErrors, type WorkflowProblem } from './errors.ts';
import { inputShapeProblems } from './input-shape.ts';
import type { Workflow, WorkflowInput } from '../plugin-api/workflow-model.ts';
import { createReadContext } from './read-context.ts';
import { resolveWorkflow } from './resolve-workflow.ts';
import { suggest } from '../text/suggest.ts';

/** Plan files larger than this are refused: a plan is read whole, and no real plan comes close. */
export const MAX_PLAN_BYTES = 4 * 1024 * 1024;

export interface LoadWorkflowOptions {
  registry: Registry;
  repoRoot: string;
  homeDir: string;
  /** The plan reader's name; absent: chosen by detect() and the file's extension. */
  reader?: string;
  /** Notices from the reader (stderr in the CLI). */
  onNotice?: (message: string) => void;
}

/** Users' layers first (the last loaded overrides), built-ins last. */
const LAYER_ORDER = ['cli', 'repo', 'user', 'beside-binary', 'builtin'];

function readerEntries(registry: Registry): PluginEntry<'plan-reader'>[] {
  const entries = registry.list().filter((e): e is PluginEntry<'plan-reader'> => e.plugin.kind === 'plan-reader');
  return entries.sort((a, b) => LAYER_ORDER.indexOf(a.layer) - LAYER_ORDER.indexOf(b.layer));
}

/** What the reader threw, without the hook wrapper's PLUGIN_HOOK around it (readerFailed names reader, hook and file). */
function hookCause(error: unknown): unknown {
  return isSupervisorError(error) && error.code === 'PLUGIN_HOOK' && error.cause !== undefined ? error.cause : error;
}

async function chooseReader(file: string, text: string, options: LoadWorkflowOptions): Promise<PlanReaderPlugin> {
  if (options.reader) return options.registry.get('plan-reader', options.reader);
  const readers = readerEntries(options.registry).map((e) => e.plugin);
  for (const reader of readers) {
    if (!reader.detect) continue;
    const detect = reader.detect.bind(reader);
    let claimed: boolean;
    try {
      // Plugin code like any hook: a time limit, a boolean answer, attribution.
      claimed = await callHook(reader, 'detect', () => detect(file, text));
    } catch (cause) {
      if (isPluginFault(cause)) throw cause;
      throw workflowErrors.readerFailed(reader.name, 'detect', file, hookCause(cause));
    }
    if (claimed) return reader;
  }
  const ext = extname(file).toLowerCase();
  const byExtension = readers.find((r) => r.extensions?.some((e) => e.toLowerCase() === ext));
  if (byExtension) return byExtension;
  throw workflowErrors.noReader(file, readers.map((r) => ({ name: r.name, extensions: r.extensions ?? [] })));
}

async function readPlanText(file: string): Promise<string> {
  try {
    const info = await stat(file);
    if (info.size > MAX_PLAN_BYTES) throw workflowErrors.tooLarge(file, info.size, MAX_PLAN_BYTES);
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw isSupervisorError(cause) ? cause : errors.fileRead(file, cause);
  }
}

/** Each role the plan names must load (same search folders as `run`): unknown and broken roles are refused. */
async function roleProblems(workflow: Workflow, input: WorkflowInput, options: LoadWorkflowOptions): Promise<Omit<WorkflowProblem, 'line'>[]> {
  const roleOptions = roleLoadOptions(options.registry, { repoRoot: options.repoRoot, homeDir: options.homeDir });
  const problems: Omit<WorkflowProblem, 'line'>[] = [];
  for (const [role, uses] of roleUses(workflow, input)) {
    try {
      await loadRole(role, roleOptions);
    } catch (error) {
      if (!isSupervisorError(error)) throw error;
      const use = uses[0]!;
      const unknown = error.code === 'ROLE_NOT_FOUND' || error.code === 'ROLE_NAME';
      problems.push({
        code: unknown ? 'WORKFLOW_UNKNOWN_ROLE' : 'WORKFLOW_ROLE_INVALID',
        pointer: use.pointer,
        task: use.task,
        message: unknown ? `no role named "${role}"${suggest(role, knownRoles(error.details))}${error.hint ? ` (${error.hint.replace(/\.$/, '')})` : ''}` : `the role "${role}" does not load [${error.code}]: ${error.message.replaceAll('\n', '\n    ')}`,
      });
    }
  }
  return problems;
}

/** Reads, normalises and checks a plan file; throws a WORKFLOW_* SupervisorError (exit 2) for a bad plan. */
export async function loadWorkflow(file: string, options: LoadWorkflowOptions): Promise<Workflow> {
  const path = resolve(file);
  const text = await readPlanText(path);
  const reader = await chooseReader(path, text, options);
  const { ctx, lineOf } = createReadContext(path, options.onNotice ?? (() => {}));
  let input: unknown;
  try {
    // A reader is plugin code: one that never settles is PLUGIN_TIMEOUT, not a silent hang (its answer's shape is checked below, with lines).
    input = await callHook(reader, 'read', () => reader.read(text, ctx));
  } catch (cause) {
    if (isPluginFault(cause)) throw cause;
    throw workflowErrors.readerFailed(reader.name, 'read', path, hookCause(cause));
  }
  const withLines = (problems: Omit<WorkflowProblem, 'line'>[]): WorkflowProblem[] =>
    problems.map((p) => {
      const line = lineOf(p.pointer);
      return line === undefined ? p : { ...p, line };
    });
  const shape = inputShapeProblems(input);
  if (shape.length) throw workflowErrors.readerOutput(path, reader.name, withLines(shape));
  const plan = input as WorkflowInput;
  const workflow = resolveWorkflow(plan, { file: path, reader: reader.name });
  const problems = structureProblems(workflow, plan, options.registry.names('adapter'));
  problems.push(...(await roleProblems(workflow, plan, options)));
  if (problems.length) throw workflowErrors.invalid(path, withLines(problems), reader.name);
  return workflow;
}

/** The role names a ROLE_NOT_FOUND lists (its details), for "did you mean". */
function knownRoles(details: unknown): string[] {
  const known = (details as { known?: unknown } | undefined)?.known;
  return Array.isArray(known) ? known.filter((k): k is string => typeof k === 'string') : [];
}

