/**
 * `workflow export <plan> --to gitlab-ci|github-actions` (issue 29): the plan as a CI pipeline,
 * one job per task running `workflow task ... --remote`, and a final job. Refuses what
 * `workflow run` refuses, before writing anything. The jobs read the plan by its path in the
 * repository, pinned by sha256: a plan git tracks is used where it is; another is copied beside
 * the pipeline file (to be committed with it).
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errors } from '../errors.ts';
import type { Role } from '../roles/role.ts';
import type { PipelineFile } from '../workflow/export/pipeline-file.ts';
import type { PipelineSpec } from '../workflow/export/pipeline-jobs.ts';
import type { AppDeps } from './deps.ts';
import { insideRepository, refusedCommands } from './plan-trust.ts';
import { adaptersUsed, jobTimeouts, runnerNeeds, settingsFlags } from './workflow-export-jobs.ts';
import { refuse, resolvePlan, type Checked, type WorkflowRunInput } from './workflow-run.ts';

export const EXPORT_TARGETS = ['gitlab-ci', 'github-actions'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

export interface WorkflowExportInput extends WorkflowRunInput {
  to: ExportTarget;
  /** The pipeline file to write, relative to deps.cwd; absent: the text is returned for stdout. */
  output?: string;
  /** The remote every job integrates on; absent: `${SUPERVISOR_REMOTE:-origin}` on the runner. */
  remote?: string;
  /** Puts `--trust` on every job's line: the team trusts what the plan runs (committed with the pipeline). */
  trust?: boolean;
}

export interface ExportedJob {
  name: string;
  task: string | null;
  needs: string[];
  timeout_minutes: number;
  command: string;
  secrets: string[];
}

export interface WorkflowExportResult {
  workflow_id: string;
  to: ExportTarget;
  /** The pipeline file written (absolute); null: the text goes to stdout. */
  file: string | null;
  /** The plan the jobs read: its path in the repository, its sha256, and where export copied it (null: git tracks it there). */
  plan: { path: string; sha256: string; written: string | null };
  jobs: ExportedJob[];
  notices: string[];
  text: string;
}

/** A repository path with "/" (what a runner's checkout and git both read). */
const posix = (rel: string) => rel.split(sep).join('/');

function inside(root: string, path: string): string | null {
  const rel = relative(root, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? posix(rel) : null;
}

interface PlanPlace {
  path: string;
  /** Absolute path to write the plan's bytes to; null: git tracks it where it is. */
  copyTo: string | null;
  notices: string[];
}

/** Where the jobs find the plan: where git tracks it, else a copy beside the pipeline file. */
async function planPlace(planFile: string, output: string | null, workflowId: string, deps: AppDeps): Promise<PlanPlace> {
  const root = realpathSync(deps.repoRoot);
  if (insideRepository(planFile, deps.repoRoot)) {
    const rel = inside(root, realpathSync(planFile))!;
    const { trackedFile } = await import('../git/tracked-file.ts');
    const state = await trackedFile(root, rel, deps.env);
    if (state.tracked) {
      const notices = state.committed ? [] : [`the plan ${rel} is not committed as it is now: commit it with the pipeline file (each job refuses a plan whose sha256 differs)`];
      return { path: rel, copyTo: null, notices };
    }
  }
  if (output === null) {
    throw errors.usage(`workflow export: git does not track the plan ${planFile}, so a runner's checkout would not have it`, 'Commit the plan first, or give -o FILE: the plan is then copied beside the pipeline file (commit both).');
  }
  const copyTo = join(dirname(output), 'supervisor-plans', workflowId, basename(planFile));
  const rel = inside(deps.repoRoot, copyTo);
  if (rel === null) throw errors.usage(`workflow export: -o ${output} is outside the repository ${deps.repoRoot}, and the plan (not tracked by git) would be copied beside it`, 'Write the pipeline file inside the repository, or commit the plan first.');
  return { path: rel, copyTo, notices: [`git does not track the plan: a copy goes to ${rel}; commit it with the pipeline file`] };
}

/** A remote given by URL must not carry a password or token: the file is committed (secrets by name only). */
function checkRemote(remote: string | undefined): void {
  if (remote === undefined) return;
  if (!remote.trim() || remote.startsWith('-')) throw errors.usage(`--remote ${JSON.stringify(remote)}: give a remote name (origin) or URL`);
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(remote)) {
    throw errors.usage('--remote: the URL holds a password or token, which would be written into the pipeline file', 'Give the remote by name, or leave --remote out and set SUPERVISOR_REMOTE as a CI secret (masked) on the runner.');
  }
}

async function loadRoles(checked: Checked, deps: AppDeps): Promise<Map<string, Role>> {
  const { roleLoadOptions } = await import('../roles/load-options.ts');
  const { loadRole } = await import('../roles/load-role.ts');
  const options = roleLoadOptions(checked.registry, deps);
  const names = [...new Set(checked.workflow.tasks.flatMap((t) => [t.worker, ...t.reviewers]))].sort();
  const roles = new Map<string, Role>();
  // The plan's roles loaded when it was read; one that does not load now keeps the defaults.
  for (const name of names) await loadRole(name, options).then((role) => roles.set(name, role), () => undefined);
  return roles;
}

async function limitDefaults() {
  const { DEFAULT_TIMEOUT_S } = await import('../run/prepare.ts');
  const { DEFAULT_GATE_TIMEOUT_S } = await import('../run/gates.ts');
  const { DEFAULT_SETUP_TIMEOUT_S } = await import('../run/setup.ts');
  const { GATE_TIMEOUT_MS } = await import('../workflow/engine/integration-gates.ts');
  return { roleTimeout: DEFAULT_TIMEOUT_S, roleGateTimeout: DEFAULT_GATE_TIMEOUT_S, setupTimeout: DEFAULT_SETUP_TIMEOUT_S, workflowGateTimeout: GATE_TIMEOUT_MS / 1000 };
}

async function buildSpec(input: WorkflowExportInput, checked: Checked, plan: PipelineSpec['plan'], deps: AppDeps): Promise<{ spec: PipelineSpec; notices: string[] }> {
  const { workflow, settings, registry } = checked;
  const roles = await loadRoles(checked, deps);
  const { plannedCli } = await import('../workflow/run-plan.ts');
  const { cliForModel } = await import('../workflow/model-cli.ts');
  const routing = { workflow, cliForModel, ...(settings.cli ? { cli: settings.cli } : {}) };
  const adapters = adaptersUsed(workflow, roles, (task, role) => plannedCli(routing, task, role));
  const { prefixes, ...runner } = runnerNeeds(adapters, registry, settings.pass_env);
  const notices: string[] = [];
  if (prefixes.length) notices.push(`--pass-env ${prefixes.join(', ')}: a prefix names no one secret; give each variable to the jobs yourself`);
  if (input.jobs !== undefined) notices.push('--jobs has no meaning in a pipeline: the CI engine runs as many jobs at once as its runners take');
  const untrusted = refusedCommands(workflow, { trusted: false, via: 'none' });
  if (untrusted.length && input.trust !== true) notices.push(`the plan runs ${untrusted.length} command${untrusted.length === 1 ? '' : 's'} of its own (${untrusted.map((c) => c.pointer).join(', ')}): a runner's checkout is not trusted, so the jobs refuse them unless you export with --trust`);
  const flags = [...settingsFlags(settings, input, input.trust === true), ...(input.base === undefined ? [] : ['--base', input.base])];
  const timeouts = jobTimeouts(workflow, roles, settings.max_rounds, await limitDefaults());
  return { spec: { workflow, plan, remote: input.remote ?? null, flags, timeouts, runner }, notices };
}

async function render(to: ExportTarget, spec: PipelineSpec): Promise<PipelineFile> {
  if (to === 'gitlab-ci') return (await import('../workflow/export/gitlab-ci.ts')).renderGitlabCi(spec);
  return (await import('../workflow/export/github-actions.ts')).renderGithubActions(spec);
}

export async function workflowExport(input: WorkflowExportInput, deps: AppDeps): Promise<WorkflowExportResult> {
  if (!(EXPORT_TARGETS as readonly string[]).includes(input.to)) throw errors.usage(`--to ${input.to}: give one of ${EXPORT_TARGETS.join(', ')}`);
  checkRemote(input.remote);
  const checked = await resolvePlan(input, deps);
  // The runners run the CLIs and sandboxes, not this machine: those are not looked for here (the file names what a runner needs).
  await refuse(checked, deps, { elsewhere: true });
  const planFile = resolve(deps.cwd, input.file);
  const bytes = readFileSync(planFile);
  const output = input.output === undefined ? null : resolve(deps.cwd, input.output);
  const place = await planPlace(planFile, output, checked.workflow.id, deps);
  const plan = { path: place.path, sha256: createHash('sha256').update(bytes).digest('hex') };
  const { spec, notices } = await buildSpec(input, checked, plan, deps);
  const file = await render(input.to, spec);
  const { writeFileAtomic } = await import('../fs/atomic-file.ts');
  if (place.copyTo !== null) writeFileAtomic(place.copyTo, bytes);
  if (output !== null) writeFileAtomic(output, file.text);
  return {
    workflow_id: checked.workflow.id,
    to: input.to,
    file: output,
    plan: { ...plan, written: place.copyTo },
    jobs: file.jobs.map((j) => ({ name: j.name, task: j.task, needs: j.needs, timeout_minutes: j.timeoutMinutes, command: j.command, secrets: j.secrets })),
    notices: [...place.notices, ...notices, ...file.notices],
    text: file.text,
  };
}
