/** Every built-in adapter against the plugin shape, and `supervisor doctor` reporting them. */
import assert from 'node:assert/strict';
import { basename, dirname } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { checkPluginShape } from '../../../core/plugin-api/shape.ts';
import type { AdapterPlugin } from '../../../core/plugin-api/index.ts';
import { adapters } from '../../../plugins/adapters/index.ts';
import { replayEnvelope } from '../../../plugins/adapters/replay.ts';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { context, processResult, request } from './helpers.ts';

const BIN = fileURLToPath(new URL('../../fixtures/bin/', import.meta.url));
const FAILURES = ['not_found', 'timeout', 'nonzero_exit', 'empty_output', 'invalid_envelope', 'api_error', 'max_turns', 'max_budget', 'interrupted'] as const;
const count = v.nullable(v.pipe(v.number(), v.minValue(0)));
const ExtractionShape = v.strictObject({
  text: v.nullable(v.string()),
  structured: v.optional(v.unknown()),
  alternates: v.optional(v.array(v.string())),
  metrics: v.strictObject({ inputTokens: count, outputTokens: count, cachedTokens: count, costUsd: count, durationMs: count, turns: count, sessionId: v.nullable(v.string()), model: v.nullable(v.string()) }),
  failure: v.optional(v.strictObject({ class: v.picklist(FAILURES), detail: v.pipe(v.string(), v.minLength(1)), httpStatus: v.optional(v.number()) })),
});

/** The smallest successful envelope of each adapter, answering "Done.". */
const SUCCESS: Record<string, string> = {
  claude: JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'Done.', num_turns: 1, total_cost_usd: 0.01 }),
  replay: JSON.stringify(replayEnvelope('Done.', 'prompt', null)),
  codex: ['{"type":"thread.started","thread_id":"t"}', '{"type":"turn.started"}', '{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"Done."}}', '{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}'].join('\n'),
  gemini: JSON.stringify({ session_id: 's', response: 'Done.', stats: { models: {} } }),
  cline: JSON.stringify({ type: 'run_result', finishReason: 'completed', iterations: 1, text: 'Done.' }),
};

describe('built-in adapters: contract', () => {
  it('are exactly claude, codex, gemini, cline and replay, each named after its file', () => {
    assert.deepEqual(adapters.map((a) => a.plugin.name).sort(), ['claude', 'cline', 'codex', 'gemini', 'replay']);
    for (const { file, plugin } of adapters) assert.equal(basename(file, '.ts'), plugin.name);
  });

  for (const { plugin } of adapters) {
    const adapter = plugin as AdapterPlugin;
    it(`${adapter.name}: passes the plugin shape check and declares versionArgs (or is self-hosted) and quietEnv`, () => {
      const check = checkPluginShape(adapter);
      assert.equal(check.ok, true, JSON.stringify(check));
      assert.equal(adapter.kind, 'adapter');
      assert.ok(adapter.selfHosted === true || Array.isArray(adapter.versionArgs));
      assert.equal(typeof adapter.quietEnv, 'object');
      assert.equal(adapter.instructions, 'prompt');
    });

    it(`${adapter.name}: extract() returns the Extraction shape for success, silence, garbage, a failed exit, timeout and interrupt`, async () => {
      const scratch = await tempDir('sv-contract-');
      const success = await adapter.extract(processResult({ stdout: SUCCESS[adapter.name] }), request({ scratchDir: scratch }), context());
      const ok = v.safeParse(ExtractionShape, success);
      assert.ok(ok.success, JSON.stringify(ok.issues?.map((x) => `${v.getDotPath(x)}: ${x.message}`)));
      assert.deepEqual([success.text, success.failure], ['Done.', undefined], `${adapter.name} success`);
      const results = [
        processResult({ stdout: '', exitCode: 0 }),
        processResult({ stdout: 'not json at all', exitCode: 0 }),
        processResult({ exitCode: 2, stderr: 'Error: bad flag' }),
        processResult({ exitCode: null, signal: 'SIGTERM', timedOut: true }),
        processResult({ exitCode: null, signal: 'SIGTERM', interrupted: true }),
      ];
      const expected = ['empty_output', 'invalid_envelope', 'nonzero_exit', 'timeout', 'interrupted'];
      for (const [i, result] of results.entries()) {
        const got = await adapter.extract(result, request({ scratchDir: scratch }), context());
        const parsed = v.safeParse(ExtractionShape, got);
        assert.ok(parsed.success, JSON.stringify(parsed.issues?.map((x) => `${v.getDotPath(x)}: ${x.message}`)));
        assert.equal(got.failure?.class, expected[i], `${adapter.name} case ${i}: ${got.failure?.detail}`);
        assert.equal(got.metrics.costUsd, null, 'no cost was reported: null, never 0');
      }
    });
  }
});

describe('every CLI adapter: role flags and x-model', () => {
  const modelFlag: Record<string, string> = { claude: '--model', codex: '--model', gemini: '-m', cline: '-m' };
  for (const { plugin } of adapters.filter((a) => a.plugin.name !== 'replay')) {
    const adapter = plugin as AdapterPlugin;
    it(`${adapter.name} appends the role's flags to its command line (the seeds deferred them)`, async () => {
      const scratch = await tempDir('sv-flags-');
      const spec = await adapter.command(request({ scratchDir: scratch, prompt: 'do the task', flags: ['--extra-flag', 'value with spaces'] }), context());
      const at = spec.args.indexOf('--extra-flag');
      assert.ok(at > 0, JSON.stringify(spec.args));
      assert.equal(spec.args[at + 1], 'value with spaces');
    });

    it(`${adapter.name} maps x-model to ${modelFlag[adapter.name]}`, async () => {
      const scratch = await tempDir('sv-model-');
      const spec = await adapter.command(request({ scratchDir: scratch, prompt: 'do the task', model: 'some-model' }), context());
      assert.equal(spec.args[spec.args.indexOf(modelFlag[adapter.name] ?? '') + 1], 'some-model');
      const none = await adapter.command(request({ scratchDir: scratch, prompt: 'do the task' }), context());
      assert.ok(!none.args.includes(modelFlag[adapter.name] ?? ''), 'no model flag without x-model');
    });
  }
});

describe('supervisor doctor lists the built-in adapters', () => {
  it('finds the four CLIs (fake bins on PATH) with their versions and quiet env, and replay', async () => {
    const repo = await makeRepo();
    const run = await runCli(['doctor', '--json'], { cwd: repo, env: { PATH: `${BIN}:${dirname(process.execPath)}` } });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { adapters: { name: string; found: boolean; version: string | null; quiet_env: Record<string, string>; source: string }[] };
    const byName = new Map(report.adapters.map((a) => [a.name, a]));
    const versions = { claude: '2.1.197 (Claude Code)', codex: 'codex-cli 0.169.0', gemini: '0.61.0', cline: '3.0.65' };
    for (const [name, version] of Object.entries(versions)) {
      const entry = byName.get(name);
      assert.deepEqual([entry?.found, entry?.version], [true, version], name);
      const adapter = adapters.find((a) => a.plugin.name === name)?.plugin as AdapterPlugin;
      assert.deepEqual(entry?.quiet_env, adapter.quietEnv);
    }
    assert.equal(byName.get('claude')?.quiet_env.DISABLE_TELEMETRY, '1');
    assert.equal(byName.get('replay')?.found, true);
    const text = await runCli(['doctor'], { cwd: repo, env: { PATH: `${BIN}:${dirname(process.execPath)}` } });
    assert.match(text.stdout, /GEMINI_TELEMETRY_ENABLED=false/);
  });

  it('reports the four CLIs as not found with an empty PATH, and replay (self-hosted) as always there', async () => {
    const repo = await makeRepo();
    const run = await runCli(['doctor', '--json'], { cwd: repo, env: { PATH: await tempDir('sv-empty-') } });
    const report = JSON.parse(run.stdout) as { adapters: { name: string; found: boolean }[] };
    for (const name of ['claude', 'codex', 'gemini', 'cline']) assert.equal(report.adapters.find((a) => a.name === name)?.found, false, name);
    assert.equal(report.adapters.find((a) => a.name === 'replay')?.found, true);
  });
});
