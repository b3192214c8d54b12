/**
 * A run's worktree made while its prompt is packed (core/run/workspace-ahead.ts): after the role
 * is trusted, before packing ends; removed when the run fails or is stopped before using it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runRole } from '../../../core/run/run-role.ts';
import { worktreesDir } from '../../../core/state-dir.ts';
import { git, makeRepo, tempDir, wrappedGit } from '../../helpers/git-repo.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../helpers/checkout.ts';
import { answer, asCall, envelope, harness } from './_fakes.ts';

/** The run folders under the repository's worktrees folder now. */
const worktrees = (repo: string) => (existsSync(worktreesDir(repo)) ? readdirSync(worktreesDir(repo)) : []);

/** Waits (at most 5 s) until the repository has a worktree of a run; whether it came. */
async function worktreeAppears(repo: string): Promise<boolean> {
  for (let waited = 0; waited < 5000; waited += 20) {
    if (worktrees(repo).length && git(repo, 'worktree', 'list', '--porcelain').includes(worktreesDir(repo))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('a run makes its worktree while its prompt is packed', () => {
  it('the worktree exists while the prompt is built, and the run works and ends in it as before', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    const h = harness(repo, [{ stdout: envelope(answer({ status: 'SUCCESS' })) }]);
    const build = h.options.peers!.buildPrompt!;
    let madeWhilePacking = false;
    h.options.peers = { ...h.options.peers, buildPrompt: async (o) => ((madeWhilePacking = await worktreeAppears(repo)), build(o)) };
    const result = await runRole(...asCall(h.options));
    assert.equal(madeWhilePacking, true);
    assert.equal(result.status, 'pass');
    assert.equal(h.calls[0]!.cwd, result.worktree.path);
    assert.ok(result.worktree.path.endsWith(result.run_id), 'the worktree is named by the run');
    assert.ok(!existsSync(result.worktree.path));
    assert.deepEqual(worktrees(repo), []);
    assertCheckoutUnchanged(repo, before);
  });

  it('a run whose packing fails after the worktree was made removes it and says the packing error', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    const h = harness(repo, [{ stdout: envelope(answer({ status: 'SUCCESS' })) }]);
    h.options.peers = {
      ...h.options.peers,
      buildPrompt: async () => {
        assert.ok(await worktreeAppears(repo));
        throw new Error('the template broke');
      },
    };
    await assert.rejects(runRole(...asCall(h.options)), /the template broke/);
    assert.deepEqual(worktrees(repo), []);
    assert.ok(!git(repo, 'worktree', 'list', '--porcelain').includes(worktreesDir(repo)));
    assert.equal(h.calls.length, 0, 'no CLI ran');
    assertCheckoutUnchanged(repo, before);
  });

  it('a run stopped while packing, its worktree made, removes it', async () => {
    const repo = await makeRepo();
    const controller = new AbortController();
    const h = harness(repo, [{ stdout: envelope(answer({ status: 'SUCCESS' })) }], { run: { signal: controller.signal } });
    const build = h.options.peers!.buildPrompt!;
    h.options.peers = {
      ...h.options.peers,
      buildPrompt: async (o) => {
        assert.ok(await worktreeAppears(repo));
        controller.abort();
        return build(o);
      },
    };
    await assert.rejects(runRole(...asCall(h.options)));
    assert.deepEqual(worktrees(repo), []);
    assert.equal(h.calls.length, 0, 'no CLI ran');
  });

  it('a run that fails after packing, before it takes the worktree (its log fails), removes it', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [{ stdout: envelope(answer({ status: 'SUCCESS' })) }], {
      run: {
        onEvent: (event) => {
          if (event.kind === 'run_started') throw new Error('the event sink broke');
        },
      },
    });
    const build = h.options.peers!.buildPrompt!;
    h.options.peers = { ...h.options.peers, buildPrompt: async (o) => (assert.ok(await worktreeAppears(repo)), build(o)) };
    await assert.rejects(runRole(...asCall(h.options)), /the event sink broke/);
    assert.deepEqual(worktrees(repo), []);
    assert.equal(h.calls.length, 0, 'no CLI ran');
  });

  it('once the run has taken the worktree, its own end decides: kept (--keep-worktree) when a plugin throws mid-run', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [], { adapter: { command: () => { throw new Error('adapter bug'); } }, run: { keepWorktree: true } });
    await assert.rejects(runRole(...asCall(h.options)), { code: 'PLUGIN_HOOK' });
    const [kept, ...rest] = worktrees(repo);
    assert.deepEqual(rest, []);
    assert.ok(kept && existsSync(join(worktreesDir(repo), kept)), 'the worktree the run kept is still there');
    git(repo, 'worktree', 'remove', '--force', join(worktreesDir(repo), kept));
  });

  it('a role refused by trust makes no worktree', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [{ stdout: envelope(answer({ status: 'SUCCESS' })) }], { role: { gates: ['true'], sources: { gates: `${repo}/.supervisor/roles/r.yaml` } } });
    await assert.rejects(runRole(...asCall(h.options)), /gate/i);
    assert.deepEqual(worktrees(repo), []);
  });

  it('a bare repository is refused before a worktree is made from it, however late its inspection answers', async () => {
    const repo = await makeRepo();
    const bare = join(await tempDir(), 'bare.git');
    git(repo, 'clone', '-q', '--bare', repo, bare);
    // A git that answers the repository's inspection late: the role is trusted and its sandbox
    // checked well before the inspection says "bare".
    const { env } = await wrappedGit(() => 'case "$*" in *--is-bare-repository*) sleep 0.5;; esac');
    const h = harness(bare, [{ stdout: envelope(answer({ status: 'SUCCESS' })) }], { run: { env } });
    await assert.rejects(runRole(...asCall(h.options)), { code: 'BARE_REPOSITORY' });
    assert.ok(!existsSync(worktreesDir(bare)), 'no worktree was made, not even for a moment');
    assert.equal(h.calls.length, 0, 'no CLI ran');
  });
});
