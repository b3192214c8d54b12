/**
 * Gemini CLI: `gemini -p <prompt> -o json` (or `-o stream-json`). The final text is `response`
 * (not `output` or `text` as the seeds assumed); fatal errors leave stdout empty and put a JSON
 * object on noisy stderr; the exit code carries the HTTP status modulo 256.
 */
import * as v from 'valibot';
import { definePlugin, emptyMetrics, type CommandRequest, type CommandSpec, type Extraction, type Failure, type Metrics, type ProcessResult } from '../../core/plugin-api/index.ts';
import { exitText, failure, httpStatusIn, processFailure, stoppedFailure } from './_shared/failure.ts';
import { isObject, jsonLines, lastJsonBlock, lastLine, parseJson, type JsonObject } from './_shared/json.ts';
import { count, sum, text } from './_shared/metrics.ts';
import { fitsInArgument } from './_shared/prompt-arg.ts';
import { plainCommands } from './_shared/plain-commands.ts';
import { invalidEnvelope, num } from './_shared/shapes.ts';

const ErrorShape = v.looseObject({ type: v.optional(v.string()), message: v.optional(v.string()), code: v.optional(v.union([v.number(), v.string()])) });
const TokensShape = v.looseObject({ prompt: num, input: num, candidates: num, cached: num, total: num });
const JsonEnvelopeShape = v.looseObject({
  session_id: v.optional(v.string()),
  response: v.optional(v.nullable(v.string())),
  error: v.optional(v.nullable(ErrorShape)),
  stats: v.optional(v.looseObject({ models: v.optional(v.record(v.string(), v.looseObject({ tokens: v.optional(TokensShape), roles: v.optional(v.record(v.string(), v.unknown())) }))) })),
});
const StreamStatsShape = v.looseObject({
  input_tokens: num,
  output_tokens: num,
  cached: num,
  duration_ms: num,
  models: v.optional(v.record(v.string(), v.looseObject({ total_tokens: num }))),
});
const ResultEventShape = v.looseObject({ type: v.literal('result'), status: v.string(), error: v.optional(ErrorShape), stats: v.optional(StreamStatsShape) });
type GeminiError = v.InferOutput<typeof ErrorShape>;

/**
 * Edits need auto_edit; commands are offered one by one as `--allowed-tools
 * "run_shell_command(<cmd>)"` (without it headless gemini has no shell tool at all); "*" is yolo
 * (the core allows it only in a sandbox).
 */
function approvalArgs(request: CommandRequest): string[] {
  if (request.allowedCommands.includes('*')) return ['--approval-mode', 'yolo'];
  const args = request.allowEdits ? ['--approval-mode', 'auto_edit'] : [];
  return [...args, ...plainCommands(request.allowedCommands).flatMap((command) => ['--allowed-tools', `run_shell_command(${command})`])];
}

function geminiArgs(request: CommandRequest): { args: string[]; stdin?: string } {
  // The prompt goes in -p; one too long for an argument (or starting with "-") goes on stdin.
  const viaArg = fitsInArgument(request.prompt);
  const args = viaArg ? ['-p', request.prompt] : [];
  args.push('-o', request.stream ? 'stream-json' : 'json');
  // -m also avoids a router call whose tokens land under a second model.
  if (request.model) args.push('-m', request.model);
  args.push(...approvalArgs(request));
  args.push(...request.flags);
  return viaArg ? { args } : { args, stdin: request.prompt };
}

/** Gemini exits with the HTTP status modulo 256 on API errors: 401 → 145, 500 → 244. */
function httpFromExit(exitCode: number | null): number | undefined {
  return exitCode !== null && exitCode >= 144 && exitCode <= 254 ? exitCode + 256 : undefined;
}

/** Maps gemini's error object and exit code to a failure class. */
function classify(error: GeminiError | undefined, result: ProcessResult, fallback: string): Failure {
  const { exitCode } = result;
  const message = error?.message ?? fallback;
  const code = typeof error?.code === 'number' ? error.code : Number(error?.code ?? NaN);
  if (error?.type === 'INVALID_STREAM' || /empty response/i.test(message)) return failure('empty_output', `gemini returned an empty reply: ${message}`);
  if (error?.type === 'FatalTurnLimitedError' || code === 53 || exitCode === 53) return failure('max_turns', `gemini stopped at its turn limit: ${message}`);
  const http = (code >= 400 && code <= 599 ? code : undefined) ?? httpStatusIn(message) ?? httpFromExit(exitCode);
  if (http !== undefined) return failure('api_error', `gemini API error ${http}: ${message}`, http);
  if (code === 41 || exitCode === 41) return failure('api_error', `gemini authentication is not set up: ${message}`);
  if (code === 42 || exitCode === 42) return failure('nonzero_exit', `gemini got no input: ${message}`);
  if (error) return failure('api_error', `gemini error: ${message}`);
  return failure('nonzero_exit', `gemini failed (${exitText(result)}): ${message}`);
}

function mainModel(models: [string, { roles?: Record<string, unknown> }, number | null][]): string | null {
  const byRole = models.find(([, m]) => m.roles && 'main' in m.roles);
  if (byRole) return byRole[0];
  return [...models].sort((a, b) => (b[2] ?? 0) - (a[2] ?? 0))[0]?.[0] ?? null;
}

function fromJsonEnvelope(envelope: v.InferOutput<typeof JsonEnvelopeShape>, result: ProcessResult): Extraction {
  const models = Object.entries(envelope.stats?.models ?? {});
  const tokens = models.map(([, m]) => m.tokens);
  const metrics: Metrics = {
    ...emptyMetrics(),
    // `prompt` includes the cached tokens (`input` excludes them): summed over every model.
    inputTokens: sum(tokens.map((t) => t?.prompt ?? sum([t?.input, t?.cached]))),
    outputTokens: sum(tokens.map((t) => t?.candidates)),
    cachedTokens: sum(tokens.map((t) => t?.cached)),
    durationMs: result.durationMs,
    sessionId: text(envelope.session_id),
    model: mainModel(models.map(([name, m]) => [name, m, m.tokens?.total ?? null])),
  };
  if (envelope.error) return { text: null, metrics, failure: classify(envelope.error, result, 'error') };
  if (!envelope.response?.trim()) return { text: null, metrics, failure: failure('empty_output', 'gemini finished but `response` is empty') };
  return { text: envelope.response, metrics };
}

function fromStream(events: JsonObject[], result: ProcessResult): Extraction {
  let buffer = '';
  let lastError: string | undefined;
  let init: JsonObject | undefined;
  let end: v.InferOutput<typeof ResultEventShape> | undefined;
  for (const e of events) {
    if (e.type === 'init') init = e;
    // Text written before a tool call is not part of the final answer.
    else if (e.type === 'tool_use') buffer = '';
    else if (e.type === 'message' && e.role === 'assistant') buffer = e.delta === true ? buffer + String(e.content ?? '') : String(e.content ?? '');
    else if (e.type === 'error' && typeof e.message === 'string') lastError = e.message;
    else if (e.type === 'result') {
      const parsed = v.safeParse(ResultEventShape, e);
      if (!parsed.success) return invalidEnvelope("gemini's result event", parsed.issues, result);
      end = parsed.output;
    }
  }
  const stats = end?.stats;
  const models = Object.entries(stats?.models ?? {});
  const metrics: Metrics = {
    ...emptyMetrics(),
    inputTokens: count(stats?.input_tokens),
    outputTokens: count(stats?.output_tokens),
    cachedTokens: count(stats?.cached),
    durationMs: count(stats?.duration_ms) || result.durationMs,
    sessionId: text(init?.session_id),
    // The model that spent tokens; else the one asked for ("auto" names none).
    model: mainModel(models.filter(([, m]) => (m.total_tokens ?? 0) > 0).map(([name, m]) => [name, {}, m.total_tokens ?? null])) ?? text(init?.model === 'auto' ? null : init?.model),
  };
  if (!end) return { text: null, metrics, failure: missingEnvelopeFailure(result, lastJsonBlock(result.stderr), "gemini's stream-json events") };
  if (end.status !== 'success') return { text: null, metrics, failure: classify(end.error ?? (lastError ? { message: lastError } : undefined), result, lastError ?? `status ${end.status}`) };
  if (!buffer.trim()) return { text: null, metrics, failure: failure('empty_output', 'gemini finished without assistant text') };
  return { text: buffer, metrics };
}

/**
 * No envelope on stdout. Unless the core stopped the process, a fatal error left its JSON object
 * as the last block on stderr (`block`), or the exit code says what went wrong.
 */
function missingEnvelopeFailure(result: ProcessResult, block: JsonObject | undefined, what: string): Failure {
  const stopped = stoppedFailure('gemini', result);
  if (stopped) return stopped;
  const parsed = block && isObject(block.error) ? v.safeParse(ErrorShape, block.error) : undefined;
  if (parsed?.success) return classify(parsed.output, result, 'error');
  const known = result.exitCode !== null && [41, 42, 53].includes(result.exitCode);
  if (known || httpFromExit(result.exitCode) !== undefined) return classify(undefined, result, lastLine(result.stderr) || 'no message');
  return processFailure('gemini', result, what);
}

function extractGemini(result: ProcessResult): Extraction {
  const whole = parseJson(result.stdout.trim());
  if (isObject(whole)) {
    const parsed = v.safeParse(JsonEnvelopeShape, whole);
    return parsed.success ? fromJsonEnvelope(parsed.output, result) : invalidEnvelope("gemini's JSON envelope", parsed.issues, result);
  }
  const events = jsonLines(result.stdout).filter((e) => typeof e.type === 'string');
  if (events.length) return fromStream(events, result);
  // Stderr may be tens of MiB: its last JSON block is found once, for the session id and the error.
  const block = lastJsonBlock(result.stderr);
  const metrics = { ...emptyMetrics(), durationMs: result.durationMs };
  if (block && typeof block.session_id === 'string') metrics.sessionId = block.session_id;
  return { text: null, metrics, failure: missingEnvelopeFailure(result, block, "gemini's JSON envelope") };
}

export default definePlugin({
  kind: 'adapter',
  name: 'gemini',
  description: 'Gemini CLI (gemini -p <prompt> -o json; stream-json when streaming)',
  bin: 'gemini',
  versionArgs: ['--version'],
  instructions: 'prompt',
  commandPermissions: 'list',
  quietEnv: { GEMINI_TELEMETRY_ENABLED: 'false', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
  // For sandboxes: its model API and Google login, and ~/.gemini (or GEMINI_CLI_HOME).
  access: {
    hosts: ['generativelanguage.googleapis.com:443', 'oauth2.googleapis.com:443', 'cloudcode-pa.googleapis.com:443'],
    baseUrlEnv: ['GOOGLE_GEMINI_BASE_URL'],
    config: [{ path: '~/.gemini', env: 'GEMINI_CLI_HOME', under: '.gemini' }],
    // Its key, Google project and login variables (GOOGLE_APPLICATION_CREDENTIALS names a file the user must also show: sandbox.read_only).
    env: ['GEMINI_*', 'GOOGLE_*', 'NODE_EXTRA_CA_CERTS'],
    secrets: ['GEMINI_API_KEY'],
  },
  command(request): CommandSpec {
    return geminiArgs(request);
  },
  extract(result) {
    return extractGemini(result);
  },
});
