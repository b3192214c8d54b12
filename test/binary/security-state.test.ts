/**
 * Issue 27 X01 (SECURITY.md I4), through the built binary: a repository that commits a symbolic
 * link as `.supervisor` (or one of its state folders), or commits state files, cannot choose
 * where we write run logs, worktrees and workflow state, nor hand us state: STATE_DIR_UNSAFE.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const APPROVED = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';

function errorCode(stderr: string): string {
  return (JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code;
}

describe('X01: state only where a repository cannot put it (issue 27)', binarySuite(), () => {
  let box: Sandbox;
  let reply: string;
  before(async () => {
    box = await makeSandbox();
    reply = join(await tempDir('sv-reply-'), 'approved.md');
    await writeFile(reply, APPROVED);
  });

  /** A clone whose commit holds `link` as a symbolic link to a folder outside it. */
  async function cloneWithLink(link: string): Promise<{ repo: string; target: string }> {
    const target = await tempDir('sv-elsewhere-');
    const repo = await makeRepo({ 'README.md': '# cloned\n' });
    await mkdir(join(repo, link, '..'), { recursive: true });
    await symlink(target, join(repo, link));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'a link');
    return { repo, target };
  }

  for (const link of ['.supervisor', '.supervisor/runs', '.supervisor/worktrees', '.supervisor/workflows']) {
    it(`a committed link ${link}: run exits 2 STATE_DIR_UNSAFE and writes nothing where it points`, async () => {
      const { repo, target } = await cloneWithLink(link);
      const out = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review', '--json'], { cwd: repo, env: { SUPERVISOR_REPLAY: reply } });
      assert.equal(out.code, 2, out.stderr);
      assert.equal(errorCode(out.stderr), 'STATE_DIR_UNSAFE');
      assert.deepEqual(readdirSync(target), [], 'nothing written through the link');
    });
  }

  it('a committed link .supervisor/workflows: workflow run exits 2 STATE_DIR_UNSAFE and writes nothing there', async () => {
    const { repo, target } = await cloneWithLink('.supervisor/workflows');
    const plan = join(await tempDir('sv-plan-'), 'plan.yaml');
    await writeFile(plan, 'name: demo\ntasks:\n  - id: a\n    title: task a\n    task: Do a.\n    cli: replay\n');
    const out = await box.run(['workflow', 'run', plan, '--cli', 'replay', '--json'], { cwd: repo, env: { SUPERVISOR_REPLAY: reply } });
    assert.equal(out.code, 2, out.stderr);
    assert.equal(errorCode(out.stderr), 'STATE_DIR_UNSAFE');
    assert.deepEqual(readdirSync(target), []);
  });

  it("committed workflow state (.supervisor/workflows/<id>/plan.json): status refuses it, STATE_DIR_UNSAFE", async () => {
    const repo = await makeRepo({ 'README.md': '# cloned\n', '.supervisor/workflows/wf-forged/plan.json': '{}\n', '.supervisor/workflows/wf-forged/events.jsonl': '' });
    const out = await box.run(['workflow', 'status', 'wf-forged', '--json'], { cwd: repo });
    assert.equal(out.code, 2, out.stderr);
    assert.equal(errorCode(out.stderr), 'STATE_DIR_UNSAFE');
  });
});
