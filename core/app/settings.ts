/**
 * What a workflow was started with, kept in `.supervisor/workflows/<id>/settings.json`
 * (SECURITY.md I6): approve, reject, resume, retry and MCP continue with these, not with
 * whatever the later command line happens to hold. A later command may tighten them; loosening
 * (a weaker sandbox, another allowed command, host or variable) needs `loosen`, and is reported
 * and recorded. The file is written whole (atomic-file), checked with valibot when read back,
 * and its exact bytes are recorded under ~/.supervisor/written: a settings file a repository
 * carries is not ours, and is not used.
 */
import { join } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../fs/atomic-file.ts';
import { workflowPaths } from '../workflow/engine/names.ts';
import { appErrors } from './errors.ts';
import { readBytes, recordWritten, wasWritten } from './written-record.ts';

const cliChoiceShape = v.object({ all: v.optional(v.string()), byRole: v.record(v.string(), v.string()) });
const changeShape = v.object({ at: v.string(), command: v.string(), loosened: v.array(v.string()), tightened: v.array(v.string()) });

const settingsShape = v.object({
  version: v.literal(1),
  workflow_id: v.string(),
  sandbox: v.nullable(v.string()),
  allow_hosts: v.array(v.string()),
  pass_env: v.array(v.string()),
  allow_commands: v.array(v.string()),
  cli: v.nullable(cliChoiceShape),
  max_cost_usd: v.nullable(v.number()),
  min_run_usd: v.nullable(v.number()),
  quota_wait_ms: v.nullable(v.number()),
  jobs: v.nullable(v.number()),
  max_rounds: v.nullable(v.number()),
  /** The trust decisions as they were when the workflow started (each command decides again). */
  trust: v.object({ repository: v.boolean(), via: v.string(), plan_commands: v.boolean() }),
  changes: v.array(changeShape),
});

export type WorkflowSettings = v.InferOutput<typeof settingsShape>;
export type SettingsChange = v.InferOutput<typeof changeShape>;

/** What one command gives; absent (or empty lists): keep what was recorded. */
export type GivenSettings = Partial<Omit<WorkflowSettings, 'version' | 'workflow_id' | 'trust' | 'changes'>>;

export function settingsFile(repoRoot: string, id: string): string {
  return join(workflowPaths(repoRoot, id).dir, 'settings.json');
}

/** A new workflow's settings: what the command gave, defaults for the rest. */
export function startingSettings(id: string, given: GivenSettings, trust: WorkflowSettings['trust']): WorkflowSettings {
  return {
    version: 1,
    workflow_id: id,
    sandbox: given.sandbox ?? null,
    allow_hosts: given.allow_hosts ?? [],
    pass_env: given.pass_env ?? [],
    allow_commands: given.allow_commands ?? [],
    cli: given.cli ?? null,
    max_cost_usd: given.max_cost_usd ?? null,
    min_run_usd: given.min_run_usd ?? null,
    quota_wait_ms: given.quota_wait_ms ?? null,
    jobs: given.jobs ?? null,
    max_rounds: given.max_rounds ?? null,
    trust,
    changes: [],
  };
}

export type ReadSettings = { kind: 'none' } | { kind: 'foreign'; file: string } | { kind: 'ours'; settings: WorkflowSettings };

/** The recorded settings: none (a workflow from before settings were kept), foreign (bytes we did not write), or ours. */
export function readSettings(repoRoot: string, id: string, homeDir: string): ReadSettings {
  const file = settingsFile(repoRoot, id);
  const bytes = readBytes(file);
  if (!bytes) return { kind: 'none' };
  if (!wasWritten(homeDir, bytes)) return { kind: 'foreign', file };
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw appErrors.settingsCorrupt(file, (error as Error).message);
  }
  const checked = v.safeParse(settingsShape, parsed);
  if (!checked.success) throw appErrors.settingsCorrupt(file, checked.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; '));
  if (checked.output.workflow_id !== id) throw appErrors.settingsCorrupt(file, `it belongs to the workflow ${checked.output.workflow_id}`);
  return { kind: 'ours', settings: checked.output };
}

/** Writes the settings whole and records their bytes as ours. */
export function writeSettings(repoRoot: string, homeDir: string, settings: WorkflowSettings): void {
  const file = settingsFile(repoRoot, settings.workflow_id);
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  writeFileAtomic(file, text);
  recordWritten(homeDir, text, 'workflow-settings', file);
}

const NO_SANDBOX = 'none';

function sandboxChange(recorded: string | null, given: string | undefined): { value: string | null; loosened?: string; tightened?: string } {
  if (given === undefined || given === (recorded ?? NO_SANDBOX)) return { value: recorded };
  if (recorded === null || recorded === NO_SANDBOX) return { value: given, tightened: `sandbox ${recorded ?? NO_SANDBOX} → ${given}` };
  return { value: given, loosened: `sandbox ${recorded} → ${given}` };
}

function listChange(name: string, recorded: string[], given: string[] | undefined): { value: string[]; loosened?: string; tightened?: string } {
  if (!given?.length) return { value: recorded };
  const added = given.filter((item) => !recorded.includes(item));
  if (added.length) return { value: given, loosened: `${name} adds ${added.map((a) => JSON.stringify(a)).join(', ')}` };
  const dropped = recorded.filter((item) => !given.includes(item));
  return dropped.length ? { value: given, tightened: `${name} drops ${dropped.map((d) => JSON.stringify(d)).join(', ')}` } : { value: recorded };
}

/**
 * The recorded settings with what this command gave applied: tightening and the tuning
 * numbers (jobs, ceiling, quota wait, rounds) and CLI choices apply; loosening is listed, and
 * the caller refuses it unless told to loosen.
 */
export function applyGiven(recorded: WorkflowSettings, given: GivenSettings): { settings: WorkflowSettings; loosened: string[]; tightened: string[] } {
  const sandbox = sandboxChange(recorded.sandbox, given.sandbox ?? undefined);
  const hosts = listChange('allowed hosts', recorded.allow_hosts, given.allow_hosts);
  const env = listChange('passed variables', recorded.pass_env, given.pass_env);
  const commands = listChange('allowed commands', recorded.allow_commands, given.allow_commands);
  const parts = [sandbox, hosts, env, commands];
  const settings: WorkflowSettings = {
    ...recorded,
    sandbox: sandbox.value,
    allow_hosts: hosts.value,
    pass_env: env.value,
    allow_commands: commands.value,
    cli: given.cli ?? recorded.cli,
    max_cost_usd: given.max_cost_usd ?? recorded.max_cost_usd,
    min_run_usd: given.min_run_usd ?? recorded.min_run_usd,
    quota_wait_ms: given.quota_wait_ms ?? recorded.quota_wait_ms,
    jobs: given.jobs ?? recorded.jobs,
    max_rounds: given.max_rounds ?? recorded.max_rounds,
  };
  return { settings, loosened: parts.flatMap((p) => p.loosened ?? []), tightened: parts.flatMap((p) => p.tightened ?? []) };
}
