/** Issue 14 item 9: results that tell the truth. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git, makeRepo, writeFiles } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';
import { fakeEnv, fenced, replies, runJson } from './_run.ts';

const APPROVED = { status: 'APPROVED', review_status: 'APPROVED', issues: [] };

/** Every object key at any depth that is camelCase. */
function camelKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => camelKeys(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [...(/^[a-z]+[A-Z]/.test(key) ? [`${path}.${key}`] : []), ...camelKeys(item, `${path}.${key}`)]);
}

describe('results that tell the truth', () => {
  it("a notice says when the answer's files disagree with git, and when a role that may not edit changed files", async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const run = await runJson(repo, ['implementer', '--task', 'change a'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced({ status: 'SUCCESS', action_taken: 'changed b', files_modified: ['src/b.ts'] })),
      FAKE_CLI_EDITS: JSON.stringify({ 'src/a.ts': 'export const a = 2;\n' }),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.result.notices.some((n) => /the answer lists src\/b\.ts in files_modified\/files_created, but git saw no change to it/.test(n)), run.result.notices.join('\n'));
    assert.ok(run.result.notices.some((n) => /git saw changes to src\/a\.ts that the answer's files_modified\/files_created do not mention/.test(n)));
    const review = await runJson(repo, ['reviewer', '--task', 'review'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)),
      FAKE_CLI_EDITS: JSON.stringify({ 'src/a.ts': 'export const a = 3;\n' }),
    });
    assert.ok(review.result.notices.some((n) => /role reviewer may not edit files .* changed 1 file\(s\): src\/a\.ts; they are on supervisor\//.test(n)), review.result.notices.join('\n'));
    const honest = await runJson(repo, ['implementer', '--task', 'change a'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced({ status: 'SUCCESS', action_taken: 'changed a', files_modified: ['./src/a.ts'] })),
      FAKE_CLI_EDITS: JSON.stringify({ 'src/a.ts': 'export const a = 4;\n' }),
    });
    assert.deepEqual(honest.result.notices.filter((n) => /files_modified|may not edit/.test(n)), []);
  });

  it('--dry-run prints a command that runs as printed, with its files kept and named', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const env = fakeEnv({ FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)) });
    const dry = await runCli(['run', 'reviewer', '--task', 'review a', '--dry-run', '--json'], { cwd: repo, env });
    assert.equal(dry.code, 0, dry.stderr);
    const plan = JSON.parse(dry.stdout) as { command_line: string; files_dir: string; settings: Record<string, unknown> };
    assert.ok(existsSync(join(plan.files_dir, 'prompt.md')));
    assert.deepEqual(camelKeys(plan), []);
    assert.equal(plan.settings.max_retries, 2);
    const out = execFileSync('sh', ['-c', plan.command_line], { cwd: repo, env: { ...process.env, ...env }, encoding: 'utf8' });
    assert.match(out, /APPROVED/);
    const human = await runCli(['run', 'reviewer', '--task', 'review a', '--dry-run'], { cwd: repo, env });
    assert.match(human.stdout, /its files are kept in \/\S+supervisor-dry-run-/);
  });

  it('--keep-worktree leaves the worktree on the run\'s branch', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const run = await runJson(repo, ['implementer', '--task', 'change a', '--keep-worktree'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced({ status: 'SUCCESS', action_taken: 'x', files_modified: ['src/a.ts'] })),
      FAKE_CLI_EDITS: JSON.stringify({ 'src/a.ts': 'export const a = 2;\n' }),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(git(run.result.worktree.path, 'symbolic-ref', '--short', 'HEAD').trim(), run.result.branch);
    assert.equal(git(run.result.worktree.path, 'status', '--porcelain'), '');
  });

  it('every --json output uses snake_case keys', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    for (const argv of [['pack', '--include', '**/*'], ['prompt', 'reviewer', '--task', 'x'], ['doctor'], ['run', 'reviewer', '--task', 'x', '--dry-run']]) {
      const out = await runCli([...argv, '--json'], { cwd: repo, env: fakeEnv() });
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(camelKeys(JSON.parse(out.stdout)), [], argv.join(' '));
    }
    const run = await runJson(repo, ['reviewer', '--task', 'x'], { FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)) });
    const show = await runCli(['runs', 'show', run.result.run_id, '--json'], { cwd: repo });
    assert.deepEqual(camelKeys(JSON.parse(show.stdout)), []);
  });

  it('untracked files under .supervisor/ are not uncommitted changes', async () => {
    const repo = await makeRepo();
    await writeFiles(repo, { '.supervisor/roles/mine.yaml': 'extends: reviewer\ndescription: mine\n', '.supervisor/notes.md': 'x\n' });
    const env = { FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)) };
    const clean = await runJson(repo, ['reviewer', '--task', 'x'], env);
    assert.deepEqual(clean.result.notices.filter((n) => /uncommitted/.test(n)), []);
    await writeFiles(repo, { 'work.txt': 'unsaved\n' });
    const dirty = await runJson(repo, ['reviewer', '--task', 'x'], env);
    assert.ok(dirty.result.notices.some((n) => /uncommitted changes/.test(n)));
  });

  it('pack without a role gives the whole budget to the files', async () => {
    const repo = await makeRepo({ 'a.md': `${'word '.repeat(3000)}\n` });
    const bare = JSON.parse((await runCli(['pack', '--include', '*.md', '--budget', '2000', '--json'], { cwd: repo })).stdout) as { budget_tokens: number; pruned: string[] };
    assert.equal(bare.budget_tokens, 2000);
    const withRole = JSON.parse((await runCli(['pack', '--role', 'reviewer', '--include', '*.md', '--budget', '2000', '--json'], { cwd: repo })).stdout) as { budget_tokens: number };
    assert.ok(withRole.budget_tokens < 2000, 'a role keeps room for its template');
    assert.ok(readFileSync(join(repo, 'a.md'), 'utf8').length > 0);
  });
});
