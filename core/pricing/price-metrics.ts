/**
 * A cost from tokens where the CLI reports none (gemini, codex, cline on some providers): the
 * tokens times the price table's list prices, marked `price-table`; the CLI's own figure when it
 * gave one (`cli`). Unknown only when the tokens, or the model's price, are.
 */
import type { Metrics } from '../plugin-api/contracts.ts';
import { priceOf, type PriceTable } from './price-table.ts';

export type CostSource = 'cli' | 'price-table';

export interface PricedMetrics {
  metrics: Metrics;
  /** Where the cost came from; null: it is unknown. */
  costSource: CostSource | null;
}

/** USD for the tokens at the price: input counts cached tokens (every adapter's shape), unless the CLI counted them apart (more cached than input). */
export function tokenCost(price: { input: number; output: number; cached?: number }, tokens: { input: number; output: number; cached: number }): number {
  const cached = Math.max(0, tokens.cached);
  const uncached = cached > tokens.input ? tokens.input : tokens.input - cached;
  const perToken = (usdPerMillion: number) => usdPerMillion / 1e6;
  return uncached * perToken(price.input) + cached * perToken(price.cached ?? price.input) + tokens.output * perToken(price.output);
}

export function priceMetrics(metrics: Metrics, cli: string, table: PriceTable): PricedMetrics {
  if (typeof metrics.costUsd === 'number') return { metrics, costSource: 'cli' };
  if (metrics.inputTokens === null && metrics.outputTokens === null) return { metrics, costSource: null };
  const model = metrics.model ?? table.cliDefaults.get(cli);
  const found = model ? priceOf(table, model) : undefined;
  if (!found) return { metrics, costSource: null };
  const costUsd = tokenCost(found.price, { input: metrics.inputTokens ?? 0, output: metrics.outputTokens ?? 0, cached: metrics.cachedTokens ?? 0 });
  return { metrics: { ...metrics, costUsd: Math.round(costUsd * 1e6) / 1e6 }, costSource: 'price-table' };
}
