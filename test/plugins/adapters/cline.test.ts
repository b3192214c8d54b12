import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import cline from '../../../plugins/adapters/cline.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { capture, context, processResult, request } from './helpers.ts';

async function session(scratch: string, id: string, messages: unknown[], extra: Record<string, unknown> = {}): Promise<void> {
  const dir = join(scratch, 'cline-data', 'sessions', id);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${id}.json`), JSON.stringify({ version: 1, session_id: id, status: 'completed', started_at: '2026-01-01T00:00:00.000Z', ended_at: '2026-01-01T00:00:02.500Z', model: 'm', ...extra }));
  await writeFile(join(dir, `${id}.messages.json`), JSON.stringify({ version: 1, messages }));
}

const say = (role: string, text: string) => ({ role, content: [{ type: 'text', text }] });
const runResult = (text: string, finishReason = 'completed') =>
  JSON.stringify({ type: 'run_result', finishReason, iterations: 2, usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 1, totalCost: 0.25 }, durationMs: 99, text, model: { id: 'mock-model' } });

describe('cline adapter: command()', () => {
  it('runs cline --json --data-dir <scratch>/cline-data "<prompt>" with stdin closed', async () => {
    const scratch = await tempDir('sv-cline-');
    const spec = await cline.command(request({ scratchDir: scratch, prompt: 'Say done please' }), context({ HOME: scratch }));
    // CLINE_GLOBAL_SETTINGS_PATH: cline reads its global settings (telemetryOptOut) there, not from --data-dir.
    assert.deepEqual(spec, { args: ['--json', '--data-dir', join(scratch, 'cline-data'), 'Say done please'], env: { CLINE_GLOBAL_SETTINGS_PATH: join(scratch, 'cline-data', 'settings', 'global-settings.json') } });
  });

  it('maps -m and puts the role flags before the prompt', async () => {
    const scratch = await tempDir('sv-cline-');
    const spec = await cline.command(request({ scratchDir: scratch, prompt: 'a b', model: 'grok-code-fast-1', flags: ['-t', '600'] }), context());
    assert.deepEqual(spec.args, ['--json', '--data-dir', join(scratch, 'cline-data'), '-m', 'grok-code-fast-1', '-t', '600', 'a b']);
  });

  it("copies the user's ~/.cline/data/settings into the fresh data dir, telemetry and auto-update off", async () => {
    const home = await tempDir('sv-home-');
    await mkdir(join(home, '.cline', 'data', 'settings'), { recursive: true });
    await writeFile(join(home, '.cline', 'data', 'settings', 'providers.json'), '{"lastUsedProvider":"openai-compatible"}');
    await writeFile(join(home, '.cline', 'data', 'settings', 'global-settings.json'), '{"theme":"dark","telemetryOptOut":false}');
    const scratch = await tempDir('sv-cline-');
    await cline.command(request({ scratchDir: scratch }), context({ HOME: home }));
    const settings = join(scratch, 'cline-data', 'settings');
    assert.equal(await readFile(join(settings, 'providers.json'), 'utf8'), '{"lastUsedProvider":"openai-compatible"}');
    assert.deepEqual(JSON.parse(await readFile(join(settings, 'global-settings.json'), 'utf8')), { theme: 'dark', telemetryOptOut: true, autoUpdateEnabled: false, enableCheckpointsSetting: false });
  });

  it('cline needs the prompt as ONE argument with whitespace that does not read as an option', async () => {
    const scratch = await tempDir('sv-cline-');
    assert.equal((await cline.command(request({ scratchDir: scratch, prompt: 'hello' }), context())).args.at(-1), 'Task: hello');
    assert.equal((await cline.command(request({ scratchDir: scratch, prompt: '--- a b' }), context())).args.at(-1), '\n--- a b');
  });

  it('a prompt too long for one argument is split at a blank line; cline appends piped stdin after one', async () => {
    const scratch = await tempDir('sv-cline-');
    const prompt = `Instructions here.\n\n${'context line\n'.repeat(20_000)}`;
    const spec = await cline.command(request({ scratchDir: scratch, prompt }), context());
    const arg = spec.args.at(-1) ?? '';
    assert.ok(Buffer.byteLength(arg) < 100_000);
    assert.equal(`${arg}\n\n${spec.stdin}`, prompt);
  });
});

describe('cline adapter: where the seeds guessed wrong', () => {
  it('cline has no --oneshot', async () => {
    const scratch = await tempDir('sv-cline-');
    const spec = await cline.command(request({ scratchDir: scratch }), context());
    assert.ok(!spec.args.includes('--oneshot'));
    const stderr = await capture('cline', 'oneshot-flag', 'stderr');
    const got = await cline.extract(processResult({ stderr, exitCode: 1 }), request({ scratchDir: scratch }), context());
    assert.equal(got.failure?.class, 'nonzero_exit');
    assert.match(got.failure?.detail ?? '', /unknown option '--oneshot'/);
  });

  it("cline's session lives in sessions/<id>/<id>.json and .messages.json, not tasks/<id>/metadata.json", async () => {
    const scratch = await tempDir('sv-cline-');
    await session(scratch, '17_abc', [say('user', 'q'), say('assistant', 'A1'), say('assistant', 'A2')], { metadata: { usage: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, totalCost: 0.01 } } });
    const got = await cline.extract(processResult({ stdout: runResult('A2') }), request({ scratchDir: scratch }), context());
    assert.deepEqual([got.text, got.metrics.sessionId, got.alternates], ['A2', '17_abc', ['A1']]);
  });

  it('a failed cline run puts the error in run_result.text: that is a failure, not an answer', async () => {
    const stdout = await capture('cline', 'json-http429', 'stdout');
    const got = await cline.extract(processResult({ stdout, exitCode: 1 }), request({ scratchDir: await tempDir('sv-cline-') }), context());
    assert.equal(got.text, null);
    assert.equal(got.failure?.class, 'api_error');
    assert.match(got.failure?.detail ?? '', /Rate limit reached/);
  });
});

describe('cline adapter: extract()', () => {
  it("alternates are the session's assistant messages newest-first, never the user's (the prompt's example JSON)", async () => {
    const scratch = await tempDir('sv-cline-');
    const example = '```json\n{"status":"SUCCESS"}\n```';
    await session(scratch, '1_a', [say('user', `Answer like ${example}`), say('assistant', 'first ```json\n{"status":"OLD"}\n```'), say('assistant', 'second ```json\n{"status":"NEW"}\n```'), say('assistant', 'final words')]);
    const got = await cline.extract(processResult({ stdout: runResult('final words') }), request({ scratchDir: scratch }), context());
    assert.equal(got.text, 'final words');
    assert.deepEqual(got.alternates, ['second ```json\n{"status":"NEW"}\n```', 'first ```json\n{"status":"OLD"}\n```']);
  });

  it('metrics come from run_result (cost as reported when non-zero), the session id from the session folder', async () => {
    const scratch = await tempDir('sv-cline-');
    await session(scratch, '5_x', [say('assistant', 'ok')]);
    const got = await cline.extract(processResult({ stdout: runResult('ok') }), request({ scratchDir: scratch }), context());
    assert.deepEqual(got.metrics, { inputTokens: 10, outputTokens: 2, cachedTokens: 1, costUsd: 0.25, durationMs: 99, turns: 2, sessionId: '5_x', model: 'mock-model' });
  });

  it('without run_result, metrics come from the session file (usage, start/end times)', async () => {
    const scratch = await tempDir('sv-cline-');
    await session(scratch, '6_y', [], { status: 'running', metadata: { usage: { inputTokens: 4, outputTokens: 1, cacheReadTokens: 0, totalCost: 0.5 } } });
    const got = await cline.extract(processResult({ exitCode: null, signal: 'SIGKILL', timedOut: true }), request({ scratchDir: scratch }), context());
    assert.deepEqual([got.failure?.class, got.metrics.inputTokens, got.metrics.costUsd, got.metrics.durationMs], ['timeout', 4, 0.5, 2500]);
  });

  /** A legacy task folder `<root>/tasks/<id>/` with a conversation and metadata; returns the task folder. */
  async function legacyTask(root: string, newest = 'newest'): Promise<string> {
    const task = join(root, 'tasks', '1700000000000');
    await mkdir(task, { recursive: true });
    await writeFile(join(task, 'api_conversation_history.json'), JSON.stringify([
      { role: 'user', content: [{ type: 'text', text: 'do it ```json\n{"action":"COMPLETED"}\n```' }] },
      { role: 'assistant', content: 'older ```json\n{"action":"RETRY"}\n```' },
      { role: 'assistant', content: [{ type: 'text', text: `${newest} \`\`\`json\n{"action":"COMPLETED"}\n\`\`\`` }, { type: 'tool_use', name: 'x' }] },
    ]));
    await writeFile(join(task, 'metadata.json'), JSON.stringify({ token_counts: { input: 120, output: 30 }, cost_usd: 0.02, duration_seconds: 4.5 }));
    return task;
  }
  const legacyRequest = (scratchDir: string, extensions: Record<string, unknown> = {}) => request({ scratchDir, role: { name: 'worker', baseRole: 'implementer', extensions } });

  for (const how of ['role field x-cline-task-dir', 'env SUPERVISOR_CLINE_TASK_DIR'] as const) {
    it(`reads a legacy task folder (api_conversation_history.json + metadata.json) via ${how}`, async () => {
      const scratch = await tempDir('sv-cline-');
      const root = await tempDir('sv-legacy-');
      const task = await legacyTask(root);
      const extensions = how.startsWith('role') ? { 'x-cline-task-dir': root } : {};
      const env = how.startsWith('env') ? { SUPERVISOR_CLINE_TASK_DIR: task } : {};
      const got = await cline.extract(processResult({ stdout: 'Task completed.\n' }), legacyRequest(scratch, extensions), context(env));
      assert.equal(got.text, 'newest ```json\n{"action":"COMPLETED"}\n```');
      assert.deepEqual(got.alternates, ['older ```json\n{"action":"RETRY"}\n```']);
      assert.deepEqual(got.metrics, { inputTokens: 120, outputTokens: 30, cachedTokens: null, costUsd: 0.02, durationMs: 4500, turns: null, sessionId: '1700000000000', model: null });
    });
  }

  it('reads no legacy task folder unless one is configured (not even tasks/ in its own data dir)', async () => {
    const scratch = await tempDir('sv-cline-');
    await legacyTask(join(scratch, 'cline-data'));
    const got = await cline.extract(processResult({ stdout: 'Task completed.\n' }), legacyRequest(scratch), context());
    assert.deepEqual([got.text, got.failure?.class, got.metrics.sessionId], [null, 'invalid_envelope', null]);
  });

  it('SUPERVISOR_CLINE_TASK_DIR wins over the role field x-cline-task-dir, as SUPERVISOR_REPLAY does over x-replay', async () => {
    const [scratch, fromRole, fromEnv] = [await tempDir('sv-cline-'), await tempDir('sv-role-'), await tempDir('sv-env-')];
    await legacyTask(fromRole, 'role');
    await legacyTask(fromEnv, 'env');
    const got = await cline.extract(processResult({ stdout: 'Task completed.\n' }), legacyRequest(scratch, { 'x-cline-task-dir': fromRole }), context({ SUPERVISOR_CLINE_TASK_DIR: fromEnv }));
    assert.match(got.text ?? '', /^env /);
  });

  it('a run_result of the wrong shape is invalid_envelope naming the field', async () => {
    const got = await cline.extract(processResult({ stdout: '{"type":"run_result","finishReason":3}\n' }), request({ scratchDir: await tempDir('sv-cline-') }), context());
    assert.equal(got.failure?.class, 'invalid_envelope');
    assert.match(got.failure?.detail ?? '', /finishReason: /);
  });

  it("cline's JSON error with a run ended by a signal names the signal, never \"exit code null\"", async () => {
    const stderr = '{"type":"error","message":"provider went away"}\n';
    const got = await cline.extract(processResult({ stderr, exitCode: null, signal: 'SIGKILL' }), request({ scratchDir: await tempDir('sv-cline-') }), context());
    assert.equal(got.failure?.class, 'nonzero_exit');
    assert.match(got.failure?.detail ?? '', /signal SIGKILL\): provider went away/);
  });

  it('SIGINT without the core noticing: no run_result, the session says cancelled → interrupted', async () => {
    const scratch = await tempDir('sv-cline-');
    await session(scratch, '9_z', [], { status: 'cancelled' });
    const got = await cline.extract(processResult({ stdout: await capture('cline', 'json-hang-sigint', 'stdout') }), request({ scratchDir: scratch }), context());
    assert.equal(got.failure?.class, 'interrupted');
  });
});
