/**
 * Codex refuses to create its apply_patch helper when its home is under TMPDIR (then every edit
 * fails while the run still answers). The fake codex refuses the same way; the adapter gives
 * codex a TMPDIR of the attempt's own, so edits land, with and without `--sandbox bwrap`
 * (whose private /tmp would otherwise hold a home that lives under /tmp).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { missingBwrap, requires } from '../helpers/requires.ts';
import { fakeEnv, fenced, replies, runJson } from './_run.ts';

const DONE = { status: 'SUCCESS', action_taken: 'added new.txt', files_created: ['new.txt'] };

/** A repository, and a codex home under the temporary root (as the real-CLI runs had it). */
async function fixture() {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  const codexHome = join(await tempDir('sv-codex-home-'), 'codex-home');
  await mkdir(codexHome);
  await writeFile(join(codexHome, 'config.toml'), 'model = "mock-model"\n');
  return { repo, codexHome, env: { FAKE_CLI_REPLY_FILE: await replies(fenced(DONE)), FAKE_CLI_EDITS: JSON.stringify({ 'new.txt': 'new\n' }), CODEX_HOME: codexHome } };
}

describe('codex edits land although its home is under the temporary folder', () => {
  it('the fake codex refuses edits as codex does when its home is under TMPDIR', async () => {
    const { repo, codexHome } = await fixture();
    const env = { ...process.env, ...fakeEnv(), CODEX_HOME: codexHome, TMPDIR: dirname(dirname(codexHome)), FAKE_CLI_EDITS: JSON.stringify({ 'new.txt': 'x\n' }), FAKE_CLI_REPLY_FILE: '/dev/null' };
    const run = spawnSync('codex', ['exec', '--json', '-'], { cwd: repo, env, input: '', encoding: 'utf8' });
    assert.match(run.stderr, /Refusing to create helper binaries under temporary dir/);
    assert.equal(git(repo, 'status', '--porcelain').trim(), '', 'no edit landed');
  });

  it('without a sandbox: codex runs with a TMPDIR of its attempt, and its edit is committed', async () => {
    const { repo, env, codexHome } = await fixture();
    const run = await runJson(repo, ['implementer', '--cli', 'codex', '--task', 'add new.txt'], { ...env, TMPDIR: dirname(dirname(codexHome)) });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.result.files_changed, ['new.txt']);
  });

  it('under --sandbox bwrap (private /tmp): the edit is committed', requires(missingBwrap()), async () => {
    const { repo, env } = await fixture();
    // The reply comes from the capture exec-json-ok (visible inside; a reply file under /tmp is not).
    delete (env as Record<string, string>).FAKE_CLI_REPLY_FILE;
    // The sandbox passes only allowlisted variables: the fake's own settings are named.
    const run = await runJson(repo, ['implementer', '--cli', 'codex', '--sandbox', 'bwrap', '--pass-env', 'FAKE_*', '--task', 'add new.txt'], env);
    assert.equal(run.code, 0, `${run.stderr}\n${JSON.stringify(run.result.failure)}`);
    assert.deepEqual(run.result.files_changed, ['new.txt']);
    assert.equal(git(repo, 'show', `${run.result.branch}:new.txt`), 'new\n');
  });
});
