/**
 * One attempt: ask the adapter for the command, spawn it in the workspace, keep its raw
 * output in the run log, read the answer, map its status, and run the gates on a pass.
 */
import { isSupervisorError } from '../errors.ts';
import { existsSync } from 'node:fs';
import type { AdapterContext, CommandRequest, Extraction, Failure } from '../plugin-api/contracts.ts';
import { emptyMetrics } from '../plugin-api/index.ts';
import { callHook, isPluginFault } from '../plugins/call-hook.ts';
import type { RunProcessOptions, RunProcessResult } from '../process/run-process.ts';
import { refusalsThatMayExplain, sandboxExplanation } from '../sandbox/explain.ts';
import { confinedExecutor } from '../sandbox/executor.ts';
import { attemptSandbox } from '../sandbox/runner.ts';
import { clip, processFailure, readAnswer } from './answer.ts';
import type { GateOutcome } from './feedback.ts';
import { runGates } from './gates.ts';
import type { AttemptMetrics } from './metrics.ts';
import { loadPriceTable } from '../pricing/price-table.ts';
import { priceMetrics } from '../pricing/price-metrics.ts';
import type { PreparedRun } from './prepare.ts';
import { adapterContext, buildRequest, cliEnv, commandEnv, commandFor, runEnv } from './request.ts';
import { failureGroup } from './retry-policy.ts';
import { runCgroupPrefix } from './run-processes.ts';
import { worktreeGit } from '../git/bound-git.ts';
import type { RunLog } from './run-log.ts';
import { mapVerdict, type MappedStatus } from './status-map.ts';
import type { Workspace } from './worktree.ts';
import { failingLines } from '../text/failing-lines.ts';

export interface AttemptEnv {
  prepared: PreparedRun;
  log: RunLog;
  workspace: Workspace;
  runId: string;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  notice(message: string): void;
}

export interface AttemptOutcome {
  /** Why this attempt is not the final answer (null: it is). */
  failure: Failure | null;
  /** The validated answer, when there was one (also on a failed gate). */
  output: Record<string, unknown> | null;
  mapped: MappedStatus | null;
  /** The gate that failed, if one did. */
  gate: GateOutcome | null;
  metrics: AttemptMetrics;
}

const ARG_LOG_CHARS = 300;

export async function runAttempt(env: AttemptEnv, attempt: number, prompt: string, maxBudgetUsd?: number): Promise<AttemptOutcome> {
  const { prepared, log, workspace } = env;
  const { settings, adapter } = prepared;
  const request = buildRequest(prepared, { prompt, cwd: workspace.path, ...worktreeGit(workspace.git), scratchDir: log.folder(`attempt-${attempt}`), attempt, maxBudgetUsd });
  const actx = adapterContext(prepared, env.env, env.notice);
  const spec = await commandFor(prepared, request, actx);
  const bin = spec.bin ?? adapter.bin;
  // The one place spawn specs meet the sandbox: the CLI and the gates run through it.
  const sandbox = attemptSandbox({
    sandbox: prepared.sandbox,
    access: adapter.access,
    commandEnv: Object.keys(commandEnv(prepared, spec)),
    env: env.env,
    self: prepared.peers.self,
    notice: env.notice,
    event: (type, data) => log.event(type, { attempt, ...data }),
    cwd: workspace.path,
    ...worktreeGit(workspace.git),
    scratchDir: request.scratchDir,
    id: `${env.runId}-${attempt}`,
    ahead: prepared.sandboxAhead,
    runProcess: prepared.peers.runProcess,
  });
  log.event('attempt_started', {
    attempt,
    bin,
    args: spec.args.map((a) => (a.length > ARG_LOG_CHARS ? `${a.slice(0, ARG_LOG_CHARS)}… (${a.length} chars)` : a)),
    stdin_bytes: spec.stdin === undefined ? null : Buffer.byteLength(spec.stdin),
    cwd: workspace.path,
    sandbox: prepared.sandbox.choice.name,
    ...(request.maxBudgetUsd !== undefined ? { max_budget_usd: request.maxBudgetUsd } : {}),
  });
  const proc = await sandbox.cli({
    bin,
    args: spec.args,
    cwd: workspace.path,
    env: cliEnv(prepared, env.env, spec, { runId: env.runId, attempt }),
    ...(spec.stdin === undefined ? {} : { stdin: spec.stdin }),
    timeoutMs: settings.timeoutMs,
    graceMs: settings.graceMs,
    maxOutputBytes: settings.maxOutputBytes,
    signal: env.signal,
    // Written as it arrives: `runs tail` follows it, and a crash or a full disk keeps what came.
    teeFiles: { stdout: log.path(`attempt-${attempt}.stdout`), stderr: log.path(`attempt-${attempt}.stderr`) },
    // The process group, on disk before the CLI can do anything: a later run's recovery ends it.
    onSpawn: ({ pid, pgid }) => log.event('cli_started', { attempt, pid, pgid }),
    cgroupPrefix: runCgroupPrefix(env.runId),
  });
  // A process runner that does not stream (a test's stand-in) leaves the files to be written now.
  for (const stream of ['stdout', 'stderr'] as const) {
    const name = `attempt-${attempt}.${stream}`;
    if (!existsSync(log.path(name))) log.write(name, proc[stream]);
  }
  if (proc.teeError !== undefined) env.notice(`attempt ${attempt}: ${bin}'s output could not be written to the run log as it arrived (${proc.teeError})`);
  log.event('cli_exited', {
    attempt,
    bin,
    exit_code: proc.exitCode,
    signal: proc.signal,
    duration_ms: proc.durationMs,
    timed_out: proc.timedOut,
    interrupted: proc.interrupted,
    not_found: proc.notFound,
    ...(proc.spawnError === undefined ? {} : { spawn_error: proc.spawnError }),
    stdout_bytes: Buffer.byteLength(proc.stdout),
    stderr_bytes: Buffer.byteLength(proc.stderr),
    truncated: proc.truncated,
    ...(proc.teeError === undefined ? {} : { tee_error: proc.teeError }),
  });
  if (proc.truncated.stdout || proc.truncated.stderr) {
    env.notice(`attempt ${attempt}: ${bin}'s output passed ${settings.maxOutputBytes} bytes and was cut; the answer may be incomplete`);
  }
  const base = { output: null, mapped: null, gate: null };
  // A CLI that failed because the sandbox refused it something says so in its failure.
  const explained = (failure: Failure): Failure => {
    const refused = refusalsThatMayExplain(failure, sandbox.refused);
    const why = failure.class === 'interrupted' ? undefined : sandboxExplanation(prepared.sandbox.choice, refused, proc.stderr, sandbox.areas);
    return why ? { ...failure, detail: `${failure.detail} (${why})` } : failure;
  };
  const found = processFailure(proc, bin, settings.timeoutMs) ?? startFailure(proc, bin);
  const early = found && explained(found);
  if (early && early.class !== 'timeout') {
    log.event('cli_failed', { attempt, failure: early });
    return { ...base, failure: early, metrics: { metrics: null, ran: proc.spawnError === undefined, processDurationMs: proc.durationMs } };
  }
  const extraction = await extract(env, proc, request, actx);
  const priced = priceMetrics(extraction.metrics, prepared.adapterName, loadPriceTable(prepared.sandbox.homeDir));
  const metrics: AttemptMetrics = { metrics: priced.metrics, costSource: priced.costSource, ran: true, processDurationMs: proc.durationMs };
  if (early) {
    log.event('cli_failed', { attempt, failure: early });
    return { ...base, failure: early, metrics };
  }
  const answer = readAnswer(proc, extraction, { bin, schema: prepared.built.outputSchema.schema, parse: prepared.parse });
  if (!answer.ok) {
    const failure = failureGroup(answer.failure) === 'answer' ? answer.failure : explained(answer.failure);
    log.event(failureGroup(failure) === 'answer' ? 'parse_failed' : 'cli_failed', { attempt, failure });
    return { ...base, failure, metrics };
  }
  const mapped = mapVerdict(answer.output, prepared.verdict);
  log.event('parsed', { attempt, source: answer.source, verdict_field: prepared.verdict.field, reported_status: mapped.reported, status: mapped.status, known_status: mapped.known });
  if (mapped.status !== 'pass' || settings.gates.length === 0) return { ...base, failure: null, output: answer.output, mapped, metrics };
  // SECURITY I2: the gates run what the CLI left in the worktree: through the one executor, in the run's sandbox and cgroup.
  const gates = confinedExecutor({
    sandbox: prepared.sandbox,
    purpose: 'gate',
    env: env.env,
    self: prepared.peers.self,
    notice: env.notice,
    onRefused: (target) => {
      log.event('sandbox_refused', { attempt, sandbox: prepared.sandbox.choice.name, purpose: 'gate', target });
      env.notice(`sandbox ${prepared.sandbox.choice.name} refused a connection to ${target} (a gate)`);
    },
    cwd: workspace.path,
    ...worktreeGit(workspace.git),
    scratchDir: request.scratchDir,
    id: `${env.runId}-${attempt}-gate`,
    trackingId: env.runId,
    runProcess: prepared.peers.runProcess,
  });
  return { ...(await gate(env, attempt, gates.spawn)), output: answer.output, mapped, metrics };
}

/**
 * A process the system refused to start although the binary exists (E2BIG: an argument
 * list too long, EAGAIN: too many processes): a CLI failure, said plainly. processFailure
 * (answer.ts) covers only a binary that is not there.
 */
function startFailure(proc: RunProcessResult, bin: string): Failure | null {
  if (proc.spawnError === undefined || proc.notFound) return null;
  return { class: 'nonzero_exit', detail: `${bin} could not be started: ${proc.spawnError}` };
}

async function extract(env: AttemptEnv, proc: RunProcessResult, request: CommandRequest, actx: AdapterContext): Promise<Extraction> {
  const { prepared } = env;
  try {
    return await callHook(prepared.adapter, 'extract', () => prepared.adapter.extract(proc, request, actx));
  } catch (error) {
    // A hook that never answers or answers in the wrong shape is a broken plugin: the run stops.
    if (isPluginFault(error)) throw error;
    // Envelopes are untrusted text: an adapter choking on one is an unusable answer, not a crash.
    const cause = isSupervisorError(error) && error.code === 'PLUGIN_HOOK' ? error.cause : error;
    const detail = `adapter ${prepared.adapterName} could not read the output: ${clip(cause instanceof Error ? cause.message : String(cause), 300)}`;
    return { text: null, metrics: emptyMetrics(), failure: { class: 'invalid_envelope', detail } };
  }
}

async function gate(
  env: AttemptEnv,
  attempt: number,
  runProcess: (options: RunProcessOptions) => Promise<RunProcessResult>,
): Promise<Pick<AttemptOutcome, 'failure' | 'gate'>> {
  const { prepared, log, workspace } = env;
  const result = await runGates({
    gates: prepared.settings.gates,
    cwd: workspace.path,
    env: { ...env.env, ...runEnv(env.runId, attempt) },
    timeoutMs: prepared.settings.gateTimeoutMs,
    graceMs: prepared.settings.graceMs,
    signal: env.signal,
    runProcess,
    cgroupPrefix: runCgroupPrefix(env.runId),
    onGate: (g) =>
      log.event(g.passed ? 'gate_passed' : 'gate_failed', {
        attempt,
        command: g.command,
        exit_code: g.exitCode,
        timed_out: g.timedOut,
        duration_ms: g.durationMs,
        ...(g.passed ? {} : { output_tail: clip(failingLines(g.output), 2000) }),
      }),
  });
  if (result.interrupted) return { failure: { class: 'interrupted', detail: 'interrupted while a gate was running' }, gate: null };
  if (!result.failed) return { failure: null, gate: null };
  const how = result.failed.timedOut ? 'timed out' : `exit ${result.failed.exitCode}`;
  return { failure: { class: 'gate_failed', detail: `gate \`${result.failed.command}\` failed (${how})` }, gate: result.failed };
}
