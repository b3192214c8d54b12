/**
 * Issue 28 item 11 through the built binary with the fake cline: a rate limit cline gave up on
 * after its own retries (about a minute inside one call) is not tried again by us (three calls
 * took 203 s); and cline runs with its telemetry opt-out where it reads it
 * (CLINE_GLOBAL_SETTINGS_PATH: it does not read global settings from --data-dir), with its
 * update and notice lookups off.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeClis } from '../helpers/fake-clis.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox } from './binary.ts';

interface Result {
  status: string;
  failure: { class: string; detail: string } | null;
}

describe('cline details (issue 28 item 11), from the binary', binarySuite(), () => {
  it("a 429 cline gave up on after its own retries is one call of ours, not three", async () => {
    const box = await makeSandbox();
    const fakes = await fakeClis(['cline']);
    const repo = await makeRepo({ 'a.txt': 'one\n' });
    const log = join(await tempDir('sv-cline-log-'), 'calls.jsonl');
    const out = await box.run(['run', 'implementer', '--cli', 'cline', '--task', 'Do it', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}`, FAKE_CLI_CASE: 'json-http429', FAKE_CLI_LOG: log, SUPERVISOR_RETRY_BACKOFF_MS: '10' },
    });
    assert.equal(out.code, 4, out.stderr);
    const result = JSON.parse(out.stdout) as Result;
    assert.equal(result.failure?.class, 'api_error');
    assert.match(result.failure!.detail, /gave up after its own retries over 62 s/);
    assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 1, 'cline was called once');
  });

  it('cline reads the telemetry opt-out from its scratch settings, with update and notice lookups off', async () => {
    const box = await makeSandbox();
    const fakes = await fakeClis(['cline']);
    const repo = await makeRepo({ 'a.txt': 'one\n' });
    const dump = join(await tempDir('sv-cline-env-'), 'env.txt');
    const reply = join(fakes, 'reply.md');
    await writeFile(reply, 'Done.\n\n```json\n{"status": "SUCCESS", "action_taken": "nothing"}\n```\n');
    const out = await box.run(['run', 'implementer', '--cli', 'cline', '--task', 'Do it', '--retries', '0', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}`, FAKE_CLI_REPLY_FILE: reply, FAKE_CLI_SH: `env > ${dump}; cat "$CLINE_GLOBAL_SETTINGS_PATH" > ${dump}.settings` },
    });
    assert.ok(out.code === 0 || out.code === 1, out.stderr);
    const env = Object.fromEntries(readFileSync(dump, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    assert.ok(env.CLINE_GLOBAL_SETTINGS_PATH, 'CLINE_GLOBAL_SETTINGS_PATH is set');
    assert.equal((JSON.parse(readFileSync(`${dump}.settings`, 'utf8')) as { telemetryOptOut?: boolean }).telemetryOptOut, true, 'the file it names opts out');
    assert.equal(env.CLINE_NO_AUTO_UPDATE, '1');
    assert.equal(env.NO_UPDATE_NOTIFIER, '1');
    assert.equal(env.CLINE_SESSION_BACKEND_MODE, 'local');
  });
});
