/**
 * Money for every CLI, through the binary: gemini reports tokens and no dollars, so its run is
 * priced from the built-in price table (`cost_source: "price-table"`), and the user's
 * ~/.supervisor/prices.yaml overrides a model's price.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeClis } from '../helpers/fake-clis.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox } from './binary.ts';

interface Metrics { cost_usd: number | null; cost_known: boolean; cost_source: string | null; input_tokens: number | null; model: string | null; attempts: number }

async function geminiRun(home?: string): Promise<Metrics> {
  const box = await makeSandbox();
  const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
  const fakes = await fakeClis(['gemini']);
  const run = await box.run(['run', 'reviewer', '--cli', 'gemini', '--task', 'Review math.js', '--target', 'math.js', '--json'], {
    cwd: repo,
    env: { PATH: `${fakes}:${box.path}`, HOME: home ?? box.home, FAKE_CLI_SCRIPT: await tempDir('sv-script-') },
  });
  // Whatever the fake's answer is worth: the attempts ran and printed their tokens.
  assert.ok(run.stdout.trim().startsWith('{'), run.stderr);
  return (JSON.parse(run.stdout) as { metrics: Metrics }).metrics;
}

describe('costs from the price table, from the binary', binarySuite(), () => {
  it("a gemini run's cost is computed from its tokens (the fake prints 1234 in, 200 of them cached, 56 out)", async () => {
    const m = await geminiRun();
    assert.equal(m.model, 'gemini-2.5-flash');
    assert.deepEqual([m.cost_known, m.cost_source], [true, 'price-table']);
    assert.ok(m.cost_usd !== null && m.cost_usd > 0, String(m.cost_usd));
  });

  it('~/.supervisor/prices.yaml overrides the built-in price', async () => {
    const home = await tempDir('sv-home-');
    await mkdir(join(home, '.supervisor'));
    await writeFile(join(home, '.supervisor', 'prices.yaml'), 'models:\n  gemini-2.5-flash: { input: 1000, output: 0, cached: 0 }\n');
    const m = await geminiRun(home);
    // Per attempt: 1034 uncached input tokens at $1000 per million; cached and output free.
    assert.equal(m.cost_usd, Math.round(1.034 * m.attempts * 1e6) / 1e6);
    assert.equal(m.cost_source, 'price-table');
  });
});
