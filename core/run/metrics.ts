/**
 * Metrics summed over a run's attempts. Tokens and cost add up the attempts that reported
 * them (null when none did). `cost_known` is false as soon as one attempt that ran said
 * nothing about cost (codex, gemini, a killed CLI): the sum is then a lower bound, never a
 * made-up total. An attempt whose CLI never started costs nothing and counts as known.
 */
import type { Metrics } from '../plugin-api/contracts.ts';
import type { CostSource } from '../pricing/price-metrics.ts';

export interface RunMetrics {
  input_tokens: number | null;
  output_tokens: number | null;
  cached_tokens: number | null;
  /** Summed known cost in USD; null when no attempt reported one. */
  cost_usd: number | null;
  /** Every attempt that ran reported its cost, or its tokens were priced by the price table. */
  cost_known: boolean;
  /** `cli`: every cost as the CLI reported it; `price-table`: at least one computed from tokens and list prices; null: unknown. */
  cost_source: CostSource | null;
  /** The cost ceiling of this run (null: none). */
  max_cost_usd: number | null;
  /** Wall time of the whole run. */
  duration_ms: number;
  /** Time spent in the CLI processes, summed. */
  cli_duration_ms: number;
  attempts: number;
  turns: number | null;
  model: string | null;
  session_id: string | null;
}

export interface AttemptMetrics {
  /** What the adapter read; null when there was nothing to read. */
  metrics: Metrics | null;
  /** Where `metrics.costUsd` came from (null: unknown); absent: the CLI's. */
  costSource?: CostSource | null;
  /** The CLI process started (false: binary not found). */
  ran: boolean;
  processDurationMs: number;
}

function sum(values: (number | null | undefined)[]): number | null {
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}

export function sumMetrics(attempts: AttemptMetrics[], runDurationMs: number, maxCostUsd: number | null): RunMetrics {
  const ran = attempts.filter((a) => a.ran);
  const all = ran.map((a) => a.metrics);
  const last = [...all].reverse().find((m) => m !== null) ?? null;
  const cost = sum(all.map((m) => m?.costUsd));
  return {
    input_tokens: sum(all.map((m) => m?.inputTokens)),
    output_tokens: sum(all.map((m) => m?.outputTokens)),
    cached_tokens: sum(all.map((m) => m?.cachedTokens)),
    cost_usd: ran.length === 0 ? 0 : cost === null ? null : Math.round(cost * 1e6) / 1e6,
    cost_known: all.every((m) => typeof m?.costUsd === 'number'),
    cost_source: costSource(ran),
    max_cost_usd: maxCostUsd,
    duration_ms: runDurationMs,
    cli_duration_ms: ran.reduce((total, a) => total + a.processDurationMs, 0),
    attempts: attempts.length,
    turns: sum(all.map((m) => m?.turns)),
    model: last?.model ?? null,
    session_id: last?.sessionId ?? null,
  };
}

/** `price-table` when any attempt's cost came from it, `cli` when every cost was reported, null when none is known. */
function costSource(ran: AttemptMetrics[]): CostSource | null {
  if (ran.length === 0) return 'cli';
  if (ran.some((a) => a.costSource === 'price-table')) return 'price-table';
  return ran.some((a) => typeof a.metrics?.costUsd === 'number') ? 'cli' : null;
}

/** Known cost so far (for the ceiling); unknown costs count as 0 but are flagged elsewhere. */
export function knownCost(attempts: AttemptMetrics[]): number {
  return sum(attempts.filter((a) => a.ran).map((a) => a.metrics?.costUsd)) ?? 0;
}
