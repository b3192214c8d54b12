/**
 * The chaining primitives of `supervisor run`: --base, --review, "nothing to review", and the
 * SUPERVISOR_ROLE the CLI and gates see. Real repositories, the fake claude on PATH.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { worktreesDir } from '../../core/state-dir.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { cliCalls, fenced, replies, runJson } from './_run.ts';

const IMPLEMENTED = { status: 'SUCCESS', action_taken: 'done' };
const APPROVED = { status: 'APPROVED', review_status: 'APPROVED', issues: [] };

/** main at "a = 1"; branch feature with one commit "a = 2" and a new file; the checkout stays on main. */
async function repoWithFeature() {
  const repo = await makeRepo({ 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
  git(repo, 'checkout', '-q', '-b', 'feature');
  await writeFiles(repo, { 'src/a.ts': 'export const a = 2; // FEATURE-MARK\n', 'src/new.ts': 'export const n = 1;\n' });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'feature');
  git(repo, 'checkout', '-q', 'main');
  return { repo, before: snapshotCheckout(repo), main: git(repo, 'rev-parse', 'main').trim(), feature: git(repo, 'rev-parse', 'feature').trim() };
}

describe('supervisor run --base / --review', () => {
  it('--base starts the worktree from that branch, and the prompt is packed from it', async () => {
    const { repo, before, feature } = await repoWithFeature();
    const log = join(await tempDir(), 'calls.jsonl');
    const run = await runJson(repo, ['implementer', '--task', 'go on', '--target', 'src/a.ts', '--base', 'feature', '--gate', 'test "$SUPERVISOR_ROLE" = implementer'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced(IMPLEMENTED)),
      FAKE_CLI_EDITS: JSON.stringify({ 'src/c.ts': 'export const c = 3;\n' }),
      FAKE_CLI_LOG: log,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.result.git_range!.startsWith(`${feature}..`), run.result.git_range!);
    assert.deepEqual(run.result.files_changed, ['src/c.ts']);
    assert.match(readFileSync(join(run.result.run_dir, 'prompt.md'), 'utf8'), /FEATURE-MARK/);
    assert.ok(cliCalls(log)[0]!.cwd.startsWith(`${worktreesDir(repo)}/`), 'the CLI ran in its worktree');
    assertCheckoutUnchanged(repo, before);
  });

  it('--review <branch> gives the reviewer the branch diff and its files at the head, in a worktree at the head', async () => {
    const { repo, before, feature } = await repoWithFeature();
    const log = join(await tempDir(), 'calls.jsonl');
    const run = await runJson(repo, ['reviewer', '--task', 'review', '--review', 'feature', '--gate', 'grep -q FEATURE-MARK src/a.ts'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)),
      FAKE_CLI_LOG: log,
    });
    assert.equal(run.code, 0, run.stderr);
    const prompt = readFileSync(join(run.result.run_dir, 'prompt.md'), 'utf8');
    assert.match(prompt, /\+export const a = 2; \/\/ FEATURE-MARK/); // the diff
    assert.match(prompt, /src\/new\.ts/); // a changed file in full
    assert.ok(!run.result.notices.some((n) => n.includes('nothing to review')), run.result.notices.join('\n'));
    const events = readFileSync(join(run.result.run_dir, 'events.jsonl'), 'utf8');
    assert.ok(events.includes(`"head":"${feature}"`), 'the run log records the reviewed range');
    assertCheckoutUnchanged(repo, before);
  });

  it('--review <base>..<head> with an empty range, and a reviewer with nothing staged, say there is nothing to review', async () => {
    const { repo, before } = await repoWithFeature();
    const reply = await replies(fenced(APPROVED));
    const empty = await runJson(repo, ['reviewer', '--task', 'review', '--review', 'main..main'], { FAKE_CLI_REPLY_FILE: reply });
    assert.ok(empty.result.notices.some((n) => n.startsWith('nothing to review: the range main..main')), empty.result.notices.join('\n'));
    const clean = await runJson(repo, ['reviewer', '--task', 'review'], { FAKE_CLI_REPLY_FILE: reply });
    assert.ok(clean.result.notices.some((n) => n.startsWith('nothing to review: the staged diff is empty')), clean.result.notices.join('\n'));
    assertCheckoutUnchanged(repo, before);
  });

  it('a --base or --review that names no commit is a usage error (exit 2) before anything runs', async () => {
    const { repo, before } = await repoWithFeature();
    const bad = await runJson(repo, ['implementer', '--task', 'x', '--base', 'no-such-branch']).catch((e: Error) => e);
    assert.ok(bad instanceof Error && /exit 2/.test(bad.message), String(bad));
    const badReview = await runJson(repo, ['reviewer', '--task', 'x', '--review', 'main..no-such-branch']).catch((e: Error) => e);
    assert.ok(badReview instanceof Error && /exit 2/.test(badReview.message), String(badReview));
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1, 'nothing ran: no worktree was made');
    assertCheckoutUnchanged(repo, before);
  });

  it('--dry-run --review shows the range\'s diff in the prompt and creates nothing', async () => {
    const { repo, before } = await repoWithFeature();
    const { runCli } = await import('../helpers/run-cli.ts');
    const dry = await runCli(['run', 'reviewer', '--task', 'review', '--review', 'main..feature', '--dry-run', '--json'], { cwd: repo });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match((JSON.parse(dry.stdout) as { prompt: string }).prompt, /\+export const a = 2; \/\/ FEATURE-MARK/);
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1);
    assertCheckoutUnchanged(repo, before);
  });
});
