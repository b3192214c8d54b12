/**
 * Worktrees of their own (issue 28, item 4), through the built binary: a checkout with its own
 * `node_modules/some-pkg` (untracked, as installed dependencies are). From a run's worktree and
 * from a workflow's slot, Node's module resolution must not find it: worktrees live outside the
 * checkout, so a gate resolves only what set-up installed there, never the user's dependencies.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { worktreesDir } from '../../core/state-dir.ts';
import { fakeClis } from '../helpers/fake-clis.ts';
import { makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const APPROVED = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';
const RESOLVE = `node -e "require.resolve('some-pkg')"`;

/** A repository whose checkout has `node_modules/some-pkg` installed (ignored, as usual). */
async function checkoutWithDependency(): Promise<string> {
  const repo = await makeRepo({ 'README.md': '# demo\n', '.gitignore': 'node_modules/\n', 'package.json': '{"name":"demo","private":true}\n' });
  await writeFiles(repo, { 'node_modules/some-pkg/package.json': '{"name":"some-pkg","main":"index.js"}', 'node_modules/some-pkg/index.js': 'module.exports = 1;\n' });
  return repo;
}

describe('worktrees outside the checkout, from the binary', binarySuite(), () => {
  let box: Sandbox;
  let tools: string;
  before(async () => {
    box = await makeSandbox();
    tools = await fakeClis(['claude']);
    await writeFile(join(tools, 'node'), `#!/bin/sh\nexec "${process.execPath}" "$@"\n`);
    await chmod(join(tools, 'node'), 0o755);
  });

  it("a run's gate cannot resolve the checkout's node_modules from its worktree, which lives under the home (0700)", async () => {
    const repo = await checkoutWithDependency();
    const reply = join(await tempDir('sv-reply-'), 'approved.md');
    await writeFile(reply, APPROVED);
    // The same gate in the checkout itself resolves it: the test's premise.
    assert.equal((await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review', '--no-worktree', '--gate', RESOLVE, '--json'], { cwd: repo, env: { PATH: `${tools}:${box.path}`, SUPERVISOR_REPLAY: reply } })).code, 0);
    const out = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review', '--gate', RESOLVE, '--keep-worktree', '--json'], { cwd: repo, env: { PATH: `${tools}:${box.path}`, SUPERVISOR_REPLAY: reply } });
    const result = JSON.parse(out.stdout) as { status: string; worktree: { path: string }; failure: { class: string; detail: string } | null };
    assert.notEqual(result.status, 'pass', out.stdout);
    assert.equal(result.failure?.class, 'gate_failed');
    assert.match(result.failure.detail, /require\.resolve/);
    const dir = worktreesDir(repo, { HOME: box.home });
    assert.ok(result.worktree.path.startsWith(`${dir}/`), `${result.worktree.path} is under ${dir}`);
    assert.ok(existsSync(result.worktree.path), '--keep-worktree keeps it there');
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.ok(!existsSync(join(repo, '.supervisor', 'worktrees')), 'nothing in the checkout');
  });

  it('a workflow with no set-up whose gate needs some-pkg fails in its slot, instead of passing on your dependencies', async () => {
    const repo = await checkoutWithDependency();
    const script = await tempDir('sv-wt-script-');
    await writeFile(join(script, 'worker.json'), JSON.stringify({
      edits: { 'a.txt': 'a\n' },
      commit: false,
      reply: 'role: worker\ntask_id: {{TASK_ID}}\nstatus: pass\ngit_range: {{GIT_RANGE}}\nfiles_changed: a.txt\n\nDone.\n',
    }));
    const plan = join(await tempDir('sv-wt-plan-'), 'plan.yaml');
    await writeFile(plan, `name: resolve\ntasks:\n  - id: a\n    title: add a\n    task: Add a.txt.\n    cli: claude\n    review: none\n    max_rounds: 1\n    gates: ["${RESOLVE.replaceAll('"', '\\"')}"]\n`);
    const out = await box.run(['workflow', 'run', plan, '--json'], { cwd: repo, env: { PATH: `${tools}:${box.path}`, FAKE_CLI_SCRIPT: script, SUPERVISOR_KILL_GRACE_MS: '300' } });
    const result = JSON.parse(out.stdout) as { status: string; tasks: { status: string; issues: string[] }[] };
    assert.notEqual(result.status, 'pass', out.stdout);
    assert.notEqual(result.tasks[0]!.status, 'integrated');
    assert.match(result.tasks[0]!.issues.join('\n'), /require\.resolve/);
    assert.ok(!existsSync(join(repo, '.supervisor', 'worktrees')), 'no worktree in the checkout');
    assert.ok(readdirSync(worktreesDir(repo, { HOME: box.home })).includes('wf'), 'the slots were made under the home');
  });
});
