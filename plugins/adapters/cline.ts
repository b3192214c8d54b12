/**
 * Cline CLI: `cline --json --data-dir <scratch>/cline-data "<prompt>"`. There is no `--oneshot`
 * (the seeds assumed one) and no instruction-file flag. A fresh data dir per run isolates state
 * and starts no background daemon; the user's provider settings are copied into it first.
 * The last line is `run_result`: success only when `finishReason === "completed"`, otherwise
 * `text` holds the error. Metrics and older answers come from the session files.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import * as v from 'valibot';
import { definePlugin, emptyMetrics, type AdapterContext, type CommandRequest, type CommandSpec, type Extraction, type Failure, type Metrics, type ProcessResult } from '../../core/plugin-api/index.ts';
import { ClineUsageShape, readClineSession, readLegacyTask, type ClineSession, type ClineUsage, type LegacyTask } from './_shared/cline-session.ts';
import { exitText, failure, httpStatusIn, processFailure, stoppedFailure } from './_shared/failure.ts';
import { isObject, jsonLines, parseJson, type JsonObject } from './_shared/json.ts';
import { count, text } from './_shared/metrics.ts';
import { splitPrompt } from './_shared/prompt-arg.ts';
import { envOrRoleSetting } from './_shared/setting.ts';
import { invalidEnvelope } from './_shared/shapes.ts';

/** Env variable (or role field) naming a legacy task folder to read answers and metrics from; the env variable wins. */
export const TASK_DIR_EXTENSION = 'x-cline-task-dir';
export const TASK_DIR_ENV = 'SUPERVISOR_CLINE_TASK_DIR';

const RunResultShape = v.looseObject({
  type: v.literal('run_result'),
  finishReason: v.string(),
  iterations: v.optional(v.nullable(v.number())),
  usage: v.optional(ClineUsageShape),
  aggregateUsage: v.optional(ClineUsageShape),
  durationMs: v.optional(v.nullable(v.number())),
  text: v.optional(v.nullable(v.string())),
  model: v.optional(v.union([v.string(), v.looseObject({ id: v.optional(v.string()) })])),
});
type RunResult = v.InferOutput<typeof RunResultShape>;

const dataDirOf = (request: CommandRequest) => join(request.scratchDir, 'cline-data');

/**
 * Copies ~/.cline/data/settings (provider, key) into the fresh data dir, with telemetry,
 * auto-update and checkpoints off (cline's checkpoints write refs/cline/checkpoints/... into the
 * user's repository: SECURITY I1; the checkout guard reports any that still appear).
 */
async function prepareDataDir(dataDir: string, home: string | undefined): Promise<void> {
  const settings = join(dataDir, 'settings');
  await mkdir(settings, { recursive: true });
  if (home) await cp(join(home, '.cline', 'data', 'settings'), settings, { recursive: true }).catch(() => {});
  const file = join(settings, 'global-settings.json');
  const current = parseJson(await readFile(file, 'utf8').catch(() => '{}'));
  await writeFile(file, `${JSON.stringify({ ...(isObject(current) ? current : {}), telemetryOptOut: true, autoUpdateEnabled: false, enableCheckpointsSetting: false }, null, 2)}\n`);
}

/** The prompt must be ONE argument that contains whitespace and does not read as an option. */
function promptArgument(prompt: string): { arg: string; stdin?: string } {
  const { arg, rest } = splitPrompt(prompt);
  let safe = /\s/.test(arg) ? arg : `Task: ${arg}`;
  if (safe.startsWith('-')) safe = `\n${safe}`;
  // Piped stdin is appended to the argument after a blank line.
  return rest === undefined ? { arg: safe } : { arg: safe, stdin: rest };
}

async function clineCommand(request: CommandRequest, ctx: AdapterContext): Promise<CommandSpec> {
  const dataDir = dataDirOf(request);
  await prepareDataDir(dataDir, ctx.env.HOME);
  const { arg, stdin } = promptArgument(request.prompt);
  const args = ['--json', '--data-dir', dataDir];
  if (request.model) args.push('-m', request.model);
  args.push(...request.flags, arg);
  // cline reads its global settings (telemetryOptOut) from CLINE_GLOBAL_SETTINGS_PATH, else
  // ~/.cline/data/settings: not from --data-dir, so the opt-out written there was not read.
  const env = { CLINE_GLOBAL_SETTINGS_PATH: join(dataDir, 'settings', 'global-settings.json') };
  return stdin === undefined ? { args, env } : { args, stdin, env };
}

/** The legacy task folder to read, only when one is configured (relative paths from the run's folder). */
function legacyDir(request: CommandRequest, ctx: AdapterContext): string | undefined {
  const configured = envOrRoleSetting(request, ctx, TASK_DIR_ENV, TASK_DIR_EXTENSION)?.value;
  if (configured === undefined) return undefined;
  return isAbsolute(configured) ? configured : resolve(request.cwd, configured);
}

/** Cline reports totalCost 0 when it has no price for the provider: with tokens spent, that is "unknown". */
function costOf(usage: ClineUsage | undefined): number | null {
  const cost = count(usage?.totalCost);
  return cost === 0 && ((usage?.inputTokens ?? 0) > 0 || (usage?.outputTokens ?? 0) > 0) ? null : cost;
}

function lastUsageEvent(events: JsonObject[]): ClineUsage | undefined {
  const e = events.filter((x) => x.type === 'agent_event' && isObject(x.event) && x.event.type === 'usage').pop();
  const u = e && isObject(e.event) ? e.event : undefined;
  return u ? { inputTokens: count(u.totalInputTokens), outputTokens: count(u.totalOutputTokens), cacheReadTokens: count(u.totalCacheReadTokens), totalCost: count(u.totalCost) } : undefined;
}

function metricsOf(run: RunResult | undefined, session: ClineSession | undefined, legacy: LegacyTask | undefined, events: JsonObject[], measuredMs: number): Metrics {
  const usage = run?.aggregateUsage ?? run?.usage ?? session?.metadata?.aggregateUsage ?? session?.metadata?.usage ?? lastUsageEvent(events);
  const started = Date.parse(session?.started_at ?? '');
  const ended = Date.parse(session?.ended_at ?? '');
  const model = typeof run?.model === 'string' ? run.model : run?.model?.id;
  return {
    ...emptyMetrics(),
    inputTokens: count(usage?.inputTokens) ?? legacy?.inputTokens ?? null,
    outputTokens: count(usage?.outputTokens) ?? legacy?.outputTokens ?? null,
    cachedTokens: count(usage?.cacheReadTokens) ?? legacy?.cachedTokens ?? null,
    costUsd: usage ? costOf(usage) : (legacy?.costUsd ?? null),
    durationMs: count(run?.durationMs) ?? (ended > started ? ended - started : null) ?? legacy?.durationMs ?? measuredMs,
    turns: count(run?.iterations),
    sessionId: session?.id ?? legacy?.id ?? null,
    model: text(model) ?? text(session?.model),
  };
}

/** Cline's own classification of its last error event: `{"errorClass":"auth","recoverable":false}`. */
function lastErrorClass(events: JsonObject[]): { errorClass?: string; recoverable?: boolean } {
  const e = events.filter((x) => x.type === 'agent_event' && isObject(x.event) && x.event.type === 'error').pop();
  const event = e && isObject(e.event) ? e.event : {};
  return {
    ...(typeof event.errorClass === 'string' ? { errorClass: event.errorClass } : {}),
    ...(typeof event.recoverable === 'boolean' ? { recoverable: event.recoverable } : {}),
  };
}

/**
 * An API error as cline reports it. Its text rarely names the HTTP status (a 401 reads "Incorrect
 * API key provided"), so its `errorClass` decides: an auth error never fixes itself, whatever
 * `recoverable` says of other classes (cline says false after its own retries of a 500 too).
 */
function apiFailure(reason: string, message: string, events: JsonObject[], durationMs: number | null): Failure {
  const status = httpStatusIn(message);
  const { errorClass, recoverable } = lastErrorClass(events);
  if (errorClass === 'auth') {
    return { ...failure('api_error', `cline authentication failed (${reason}): ${message}`, status), retryable: false };
  }
  // A rate limit cline gave up on has been retried by cline itself for about a minute (six
  // requests in the capture): our attempts would each wait that minute again (203 s seen).
  // One attempt; a workflow pauses on it as on any quota failure (engine/quota.ts).
  if (recoverable === false && (status === 429 || RATE_LIMIT_TEXT.test(message))) {
    const spent = durationMs === null ? '' : ` over ${Math.round(durationMs / 1000)} s`;
    return { ...failure('api_error', `cline was rate limited and gave up after its own retries${spent}: ${message}`, 429), retryable: false };
  }
  return failure('api_error', `cline ${reason}: ${message}`, status);
}

const RATE_LIMIT_TEXT = /rate[ -]?limit|too many requests/i;

function runFailure(run: RunResult, events: JsonObject[]): Failure | undefined {
  const reason = run.finishReason;
  const message = run.text || `finishReason ${reason}`;
  if (reason === 'completed') return run.text?.trim() ? undefined : failure('empty_output', 'cline completed with an empty reply');
  if (/empty response/i.test(message)) return failure('empty_output', `cline got an empty reply: ${message}`);
  if (/turn|iteration/i.test(reason)) return failure('max_turns', `cline stopped at its turn limit: ${message}`);
  if (/budget|cost/i.test(reason)) return failure('max_budget', `cline stopped at its cost limit: ${message}`);
  if (/abort|cancel/i.test(reason)) return failure('interrupted', `cline was stopped: ${message}`);
  return apiFailure(reason, message, events, count(run.durationMs));
}

/** No run_result: the core's flags, then the session's status, then cline's JSON error on stderr. */
function missingRunFailure(result: ProcessResult, session: ClineSession | undefined): Failure {
  const stopped = stoppedFailure('cline', result);
  if (stopped) return stopped;
  // SIGINT that the core did not send: cline exits 0 and marks the session cancelled.
  if (session?.status === 'cancelled') return failure('interrupted', 'cline was cancelled before it finished (no run_result)');
  const error = jsonLines(result.stderr).filter((e) => e.type === 'error' && typeof e.message === 'string').pop();
  if (error && result.exitCode !== 0) return failure('nonzero_exit', `cline failed (${exitText(result)}): ${String(error.message)}`);
  return processFailure('cline', result, "cline's JSON events");
}

async function extractCline(result: ProcessResult, request: CommandRequest, ctx: AdapterContext): Promise<Extraction> {
  const events = jsonLines(result.stdout).filter((e) => typeof e.type === 'string');
  const last = events.filter((e) => e.type === 'run_result').pop();
  const parsed = last ? v.safeParse(RunResultShape, last) : undefined;
  const run = parsed?.success ? parsed.output : undefined;
  const session = await readClineSession(dataDirOf(request));
  const taskDir = legacyDir(request, ctx);
  const legacy = taskDir === undefined ? undefined : await readLegacyTask(taskDir);
  const metrics = metricsOf(run, session, legacy, events, result.durationMs);
  if (parsed && !parsed.success) return invalidEnvelope("cline's run_result", parsed.issues, result, metrics);

  let textOut: string | null = null;
  let why: Failure | undefined;
  if (run) {
    why = runFailure(run, events);
    if (!why) textOut = run.text ?? null;
  } else if (legacy?.assistantTexts.length && result.exitCode === 0 && !stoppedFailure('cline', result)) {
    // An older cline that prints no run_result: the legacy task folder holds the answer.
    textOut = legacy.assistantTexts[0] ?? null;
  } else {
    why = missingRunFailure(result, session);
  }
  if (why) return { text: null, metrics, failure: why };
  const alternates = [...(session?.assistantTexts ?? []), ...(legacy?.assistantTexts ?? [])].filter((t, i, all) => t !== textOut && all.indexOf(t) === i);
  return alternates.length ? { text: textOut, metrics, alternates } : { text: textOut, metrics };
}

export default definePlugin({
  kind: 'adapter',
  name: 'cline',
  description: 'Cline CLI (cline --json --data-dir <fresh> "<prompt>")',
  bin: 'cline',
  versionArgs: ['--version'],
  // Cline 3 has no flag for instruction files: they are rendered into the prompt.
  instructions: 'prompt',
  // As cline's own test harness runs it: no auto-update, no update notifier, no telemetry, no
  // Cline Pass notice (a lookup), the local backend (no hub daemon holding a connection).
  quietEnv: { CLINE_NO_AUTO_UPDATE: '1', NO_UPDATE_NOTIFIER: '1', CLINE_TELEMETRY_DISABLED: '1', CLINE_DISABLE_CLINE_PASS_NOTICE: '1', CLINE_SESSION_BACKEND_MODE: 'local' },
  // For sandboxes: command() copies its provider settings into the scratch data dir, so it
  // needs nothing of the home; a provider's base URL is the user's to allow (--allow-host).
  access: { hosts: ['api.cline.bot:443'], env: ['CLINE_*', 'NODE_EXTRA_CA_CERTS'] },
  command(request, ctx) {
    return clineCommand(request, ctx);
  },
  extract(result, request, ctx) {
    return extractCline(result, request, ctx);
  },
});
