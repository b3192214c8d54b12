/**
 * Claude Code's `-p` envelope: one `result` object (`--output-format json`), a JSON array of
 * messages ending with it (`json --verbose`), or JSON Lines ending with it (`stream-json`).
 * Shared by the claude adapter and the replay adapter, which prints the same envelope.
 */
import * as v from 'valibot';
import type { Extraction, Failure, Metrics, ProcessResult } from '../../../core/plugin-api/index.ts';
import { emptyMetrics } from '../../../core/plugin-api/index.ts';
import { failure, httpStatusIn, processFailure } from './failure.ts';
import { isObject, jsonLines, parseJson, type JsonObject } from './json.ts';
import { count, sum, text } from './metrics.ts';
import { invalidEnvelope, num } from './shapes.ts';

const UsageShape = v.looseObject({
  input_tokens: num,
  output_tokens: num,
  cache_read_input_tokens: num,
  cache_creation_input_tokens: num,
});

const ModelUsageShape = v.record(
  v.string(),
  v.looseObject({ inputTokens: num, outputTokens: num, cacheReadInputTokens: num, cacheCreationInputTokens: num, costUSD: num }),
);

/** The `type: "result"` object: the only line that carries the final text and totals. */
export const ClaudeResultShape = v.looseObject({
  type: v.literal('result'),
  subtype: v.string(),
  is_error: v.optional(v.boolean()),
  result: v.optional(v.nullable(v.string())),
  errors: v.optional(v.array(v.unknown())),
  duration_ms: num,
  num_turns: num,
  session_id: v.optional(v.nullable(v.string())),
  total_cost_usd: num,
  usage: v.optional(v.nullable(UsageShape)),
  modelUsage: v.optional(v.nullable(ModelUsageShape)),
  api_error_status: num,
  structured_output: v.optional(v.unknown()),
  permission_denials: v.optional(v.nullable(v.array(v.unknown()))),
});

export type ClaudeResult = v.InferOutput<typeof ClaudeResultShape>;

interface Messages {
  /** The result object, unvalidated, if any message has `type: "result"`. */
  result?: JsonObject;
  /** `system/init`: model and session id, even when the run never finished. */
  init?: JsonObject;
}

/** Claude's messages: JSON objects with a string `type` (other JSON, e.g. a reply printed in text mode, is not an envelope). */
function messagesOf(stdout: string): JsonObject[] | undefined {
  const whole = parseJson(stdout.trim());
  const all = Array.isArray(whole) ? whole.filter(isObject) : isObject(whole) ? [whole] : jsonLines(stdout);
  const messages = all.filter((m) => typeof m.type === 'string');
  return messages.length ? messages : undefined;
}

function collect(messages: JsonObject[]): Messages {
  return { result: messages.filter((m) => m.type === 'result').pop(), init: messages.find((m) => m.type === 'system' && m.subtype === 'init') };
}

function metricsOf(r: ClaudeResult, init: JsonObject | undefined, measuredMs: number): Metrics {
  const models = Object.entries(r.modelUsage ?? {});
  const u = r.usage ?? {};
  const usageInput = sum([u.input_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens]);
  const modelInput = sum(models.map(([, m]) => sum([m.inputTokens, m.cacheReadInputTokens, m.cacheCreationInputTokens])));
  // Under a budget error `usage` is all zeros while `modelUsage` holds the real counts.
  const useModels = !usageInput && !!modelInput;
  const modelCost = sum(models.map(([, m]) => m.costUSD));
  const cost = count(r.total_cost_usd);
  const main = models.sort((a, b) => (b[1].costUSD ?? 0) - (a[1].costUSD ?? 0) || (b[1].outputTokens ?? 0) - (a[1].outputTokens ?? 0))[0];
  return {
    inputTokens: useModels ? modelInput : usageInput,
    outputTokens: useModels ? sum(models.map(([, m]) => m.outputTokens)) : count(u.output_tokens),
    cachedTokens: useModels ? sum(models.map(([, m]) => m.cacheReadInputTokens)) : count(u.cache_read_input_tokens),
    costUsd: cost === 0 && modelCost ? modelCost : cost,
    durationMs: count(r.duration_ms) ?? measuredMs,
    turns: count(r.num_turns),
    sessionId: text(r.session_id) ?? text(init?.session_id),
    model: main?.[0] ?? text(init?.model),
  };
}

function errorsText(r: ClaudeResult): string {
  return (r.errors ?? []).map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('; ');
}

function failureOf(r: ClaudeResult, cli: string): Failure | undefined {
  if (r.subtype === 'error_max_turns') return failure('max_turns', `${cli} stopped at its turn limit: ${errorsText(r) || r.subtype}`);
  if (r.subtype === 'error_max_budget_usd') return failure('max_budget', `${cli} stopped at its cost limit: ${errorsText(r) || r.subtype}`);
  if (r.subtype !== 'success') {
    const status = count(r.api_error_status) ?? undefined;
    return failure(status ? 'api_error' : 'nonzero_exit', `${cli} ended with ${r.subtype}: ${errorsText(r) || r.result || 'no detail'}`, status);
  }
  if (r.is_error) {
    // API errors come as subtype "success" with is_error and the message in `result`.
    const message = r.result || errorsText(r) || 'is_error without a message';
    return failure('api_error', `${cli} API error: ${message}`, count(r.api_error_status) ?? httpStatusIn(message));
  }
  if (!r.result && r.structured_output === undefined) return failure('empty_output', `${cli} finished but its reply was empty`);
  return undefined;
}

/** Reads a claude `-p` envelope (json, json --verbose, stream-json) into an Extraction. */
export function readClaudeEnvelope(result: ProcessResult, cli = 'claude'): Extraction & { permissionDenials: number } {
  const messages = messagesOf(result.stdout);
  const found = messages ? collect(messages) : undefined;
  if (!found?.result) {
    const metrics = { ...emptyMetrics(), durationMs: result.durationMs, sessionId: text(found?.init?.session_id), model: text(found?.init?.model) };
    // Messages without a result: the run stopped early, or printed an unfinished envelope.
    const what = messages ? 'an envelope with a final "result" message' : `${cli}'s JSON envelope`;
    return { text: null, metrics, failure: processFailure(cli, result, what), permissionDenials: 0 };
  }
  const parsed = v.safeParse(ClaudeResultShape, found.result);
  if (!parsed.success) return { ...invalidEnvelope(`${cli}'s result message`, parsed.issues, result), permissionDenials: 0 };
  const r = parsed.output;
  const metrics = metricsOf(r, found.init, result.durationMs);
  const why = failureOf(r, cli);
  const extraction: Extraction & { permissionDenials: number } = { text: why ? null : (r.result ?? ''), metrics, permissionDenials: r.permission_denials?.length ?? 0 };
  if (why) extraction.failure = why;
  else if (r.structured_output !== undefined && r.structured_output !== null) extraction.structured = r.structured_output;
  return extraction;
}
