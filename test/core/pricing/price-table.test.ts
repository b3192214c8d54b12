import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { emptyMetrics } from '../../../core/plugin-api/index.ts';
import { priceMetrics, tokenCost } from '../../../core/pricing/price-metrics.ts';
import { loadPriceTable, priceOf } from '../../../core/pricing/price-table.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { thrownCode } from '../../helpers/thrown-code.ts';

const tokens = { ...emptyMetrics(), inputTokens: 1_000_000, outputTokens: 100_000, cachedTokens: 200_000 };

describe('the price table', () => {
  it('is dated data that says where its prices come from', async () => {
    const data = JSON.parse(await readFile(fileURLToPath(new URL('../../../core/pricing/prices.json', import.meta.url)), 'utf8')) as { date: string; about: string };
    assert.match(data.date, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(data.about, /list prices/);
  });

  it('finds a model by its name or a dated release of it, dots read as dashes, a provider prefix ignored; another variant has no price', async () => {
    const table = loadPriceTable(await tempDir('sv-home-'));
    assert.equal(priceOf(table, 'gemini-2.5-flash')?.name, 'gemini-2-5-flash');
    assert.equal(priceOf(table, 'gemini-2.5-flash-lite')?.name, 'gemini-2-5-flash-lite');
    assert.equal(priceOf(table, 'claude-sonnet-4-5-20250929')?.name, 'claude-sonnet-4-5');
    assert.equal(priceOf(table, 'anthropic/claude-sonnet-4.5')?.name, 'claude-sonnet-4-5');
    assert.equal(priceOf(table, 'o3-pro'), undefined, 'not priced as o3');
    assert.equal(priceOf(table, 'mock-model'), undefined);
  });

  it('prices tokens where the CLI reports no cost (price-table), keeps a reported cost (cli), and is unknown only without tokens or price', async () => {
    const table = loadPriceTable(await tempDir('sv-home-'));
    const gemini = priceMetrics({ ...tokens, model: 'gemini-2.5-pro' }, 'gemini', table);
    // 800k uncached at $1.25, 200k cached at $0.125, 100k output at $10 per million.
    assert.deepEqual([gemini.costSource, gemini.metrics.costUsd], ['price-table', 1 + 0.025 + 1]);
    const codex = priceMetrics({ ...tokens, model: null }, 'codex', table);
    assert.equal(codex.costSource, 'price-table', "codex names no model: priced as its default's");
    assert.deepEqual(priceMetrics({ ...tokens, model: 'claude-opus-4-5', costUsd: 0.5 }, 'claude', table), { metrics: { ...tokens, model: 'claude-opus-4-5', costUsd: 0.5 }, costSource: 'cli' });
    assert.deepEqual(priceMetrics({ ...emptyMetrics(), model: 'gemini-2.5-pro' }, 'gemini', table).costSource, null);
    assert.deepEqual(priceMetrics({ ...tokens, model: 'mock-model' }, 'cline', table).costSource, null);
  });

  it('counts cached tokens apart when the CLI did (more cached than input)', () => {
    const cost = tokenCost({ input: 1, output: 0, cached: 0.1 }, { input: 100, output: 0, cached: 1000 });
    assert.ok(Math.abs(cost - 200 / 1e6) < 1e-12, String(cost));
  });

  it('~/.supervisor/prices.yaml overrides and adds models; a bad one is PRICES_INVALID', async () => {
    const home = await tempDir('sv-home-');
    await mkdir(join(home, '.supervisor'));
    await writeFile(join(home, '.supervisor', 'prices.yaml'), 'models:\n  mock-model: { input: 1, output: 2 }\n  gemini-2.5-pro: { input: 0, output: 0, cached: 0 }\n');
    const table = loadPriceTable(home);
    assert.deepEqual(priceMetrics({ ...tokens, model: 'mock-model' }, 'cline', table).metrics.costUsd, 1 + 0.2);
    assert.equal(priceMetrics({ ...tokens, model: 'gemini-2.5-pro' }, 'gemini', table).metrics.costUsd, 0);
    await writeFile(join(home, '.supervisor', 'prices.yaml'), 'models:\n  mock-model: { input: -1, output: 2, extra: 3 }\n');
    assert.equal(thrownCode(() => loadPriceTable(home)), 'PRICES_INVALID');
  });
});
