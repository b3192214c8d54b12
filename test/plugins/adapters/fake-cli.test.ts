/**
 * The fake CLIs of test/fixtures/bin driven through each adapter as real processes: the
 * adapters' command lines are accepted, their envelopes read back, and the fakes' hang,
 * SIGTERM, grandchild, stdin and edit switches behave as test/fixtures/bin/README.md says.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AdapterPlugin, CommandRequest } from '../../../core/plugin-api/index.ts';
import { runProcess, type RunProcessResult } from '../../../core/process/run-process.ts';
import claude from '../../../plugins/adapters/claude.ts';
import cline from '../../../plugins/adapters/cline.ts';
import codex from '../../../plugins/adapters/codex.ts';
import gemini from '../../../plugins/adapters/gemini.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { context, request } from './helpers.ts';
import { alive } from '../../helpers/processes.ts';

const BIN = fileURLToPath(new URL('../../fixtures/bin/', import.meta.url));
const REPLY = 'All done.\n\n```json\n{"status":"SUCCESS","action_taken":"x"}\n```\n';

async function run(adapter: AdapterPlugin, req: CommandRequest, fakeEnv: Record<string, string>, limits: { timeoutMs?: number; graceMs?: number } = {}): Promise<RunProcessResult> {
  const spec = await adapter.command(req, context({ HOME: req.scratchDir }));
  const env = { PATH: `${BIN}:${process.env.PATH}`, HOME: req.scratchDir, ...adapter.quietEnv, ...spec.env, ...fakeEnv };
  return runProcess({ bin: spec.bin ?? adapter.bin, args: spec.args, cwd: req.cwd, env, stdin: spec.stdin, timeoutMs: limits.timeoutMs ?? 20_000, graceMs: limits.graceMs ?? 500 });
}

async function fresh(prompt = 'Make the change described here.'): Promise<CommandRequest> {
  const dir = await tempDir('sv-fake-');
  await mkdir(join(dir, 'scratch'), { recursive: true });
  return request({ cwd: dir, scratchDir: join(dir, 'scratch'), prompt });
}

describe('fake CLIs through the adapters (real processes)', () => {
  for (const adapter of [claude, codex, gemini, cline]) {
    it(`${adapter.name}: the adapter's command line runs, and the reply comes back through its real envelope`, async () => {
      const req = await fresh();
      const replyFile = join(req.cwd, 'reply.md');
      await writeFile(replyFile, REPLY);
      const log = join(req.cwd, 'calls.jsonl');
      const result = await run(adapter, req, { FAKE_CLI_REPLY_FILE: replyFile, FAKE_CLI_LOG: log });
      assert.equal(result.exitCode, 0, result.stderr);
      const got = await adapter.extract(result, req, context());
      assert.equal(got.failure, undefined, JSON.stringify(got.failure));
      assert.equal(got.text, REPLY);
      assert.equal(got.metrics.outputTokens, 56);
      const call = JSON.parse((await readFile(log, 'utf8')).trim());
      const spec = await adapter.command(req, context({ HOME: req.scratchDir }));
      assert.deepEqual(call.args, spec.args);
      // The prompt reached the CLI: on stdin for claude and codex, as -p for gemini, as the argument for cline.
      assert.ok(call.stdin === req.prompt || call.args.includes(req.prompt), JSON.stringify(call));
    });
  }

  it('cline: session files written in the fresh data dir are read back (session id)', async () => {
    const req = await fresh();
    const result = await run(cline, req, {});
    const got = await cline.extract(result, req, context());
    assert.equal(got.metrics.sessionId, '1795325717465_p7de5');
  });

  it('FAKE_CLI_CASE replays a failure capture (codex 401)', async () => {
    const req = await fresh();
    const result = await run(codex, req, { FAKE_CLI_CASE: 'exec-json-http401' });
    assert.equal(result.exitCode, 1);
    const got = await codex.extract(result, req, context());
    assert.deepEqual([got.failure?.class, got.failure?.httpStatus], ['api_error', 401]);
  });

  it('FAKE_CLI_STDIN_FILE receives the prompt the adapter wrote to stdin', async () => {
    const req = await fresh('a prompt\nover two lines');
    const file = join(req.cwd, 'stdin.txt');
    await run(claude, req, { FAKE_CLI_STDIN_FILE: file });
    assert.equal(await readFile(file, 'utf8'), 'a prompt\nover two lines');
  });

  it('a hanging capture (killed by timeout when recorded) hangs until the timeout: timeout', async () => {
    const req = await fresh();
    const result = await run(gemini, req, { FAKE_CLI_CASE: 'json-hang' }, { timeoutMs: 400 });
    assert.equal(result.timedOut, true);
    assert.equal((await gemini.extract(result, req, context())).failure?.class, 'timeout');
  });

  it('FAKE_CLI_IGNORE_TERM: TERM is ignored, the group is KILLed after the grace period', async () => {
    const req = await fresh();
    const result = await run(cline, req, { FAKE_CLI_HANG: '1', FAKE_CLI_IGNORE_TERM: '1' }, { timeoutMs: 400, graceMs: 300 });
    assert.deepEqual([result.timedOut, result.signal], [true, 'SIGKILL']);
  });

  it('FAKE_CLI_GRANDCHILD: a grandchild holding stdout does not keep the run open, and is ended', async () => {
    const req = await fresh();
    const pidFile = join(req.cwd, 'grandchild.pid');
    const result = await run(codex, req, { FAKE_CLI_GRANDCHILD: '1', FAKE_CLI_GRANDCHILD_PID_FILE: pidFile });
    assert.equal(result.exitCode, 0);
    assert.equal((await codex.extract(result, req, context())).failure, undefined);
    const pid = Number(await readFile(pidFile, 'utf8'));
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(alive(pid), false);
  });

  it('FAKE_CLI_EDITS writes files in the working folder (an implementer at work)', async () => {
    const req = await fresh();
    await run(claude, { ...req, allowEdits: true }, { FAKE_CLI_EDITS: JSON.stringify({ 'src/new.txt': 'hello\n' }) });
    assert.equal(await readFile(join(req.cwd, 'src', 'new.txt'), 'utf8'), 'hello\n');
  });

  it('FAKE_CLI_REPLY_FILE as a folder answers successive calls with successive files', async () => {
    const req = await fresh();
    const dir = join(req.cwd, 'replies');
    await mkdir(dir);
    await writeFile(join(dir, '1.md'), 'one');
    await writeFile(join(dir, '2.md'), 'two');
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await gemini.extract(await run(gemini, req, { FAKE_CLI_REPLY_FILE: dir }), req, context())).text);
    assert.deepEqual(texts, ['one', 'two', 'two']);
  });

  it('the fakes refuse what the real CLIs refuse (cline --oneshot, an unquoted prompt)', async () => {
    const req = await fresh();
    const refused = await runProcess({ bin: 'cline', args: ['--oneshot', 'Say done'], cwd: req.cwd, env: { PATH: `${BIN}:${process.env.PATH}` }, timeoutMs: 10_000 });
    assert.equal(refused.exitCode, 1);
    assert.match(refused.stderr, /unknown option '--oneshot'/);
    const split = await runProcess({ bin: 'cline', args: ['--json', 'Say', 'done'], cwd: req.cwd, env: { PATH: `${BIN}:${process.env.PATH}` }, timeoutMs: 10_000 });
    assert.match(split.stderr, /unquoted prompt/);
  });
});
