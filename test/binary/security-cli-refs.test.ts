/**
 * Issue 27, D3, through the built binary: cline writes checkpoint refs
 * (`refs/cline/checkpoints/<session>/<n>`) into the user's repository. The run reports them, its
 * log records them, and `supervisor gc` removes exactly those (compare-and-swap), never a
 * person's own checkpoint ref.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeClis } from '../helpers/fake-clis.ts';
import { git, makeRepo } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox } from './binary.ts';

const IMPLEMENTED = '```json\n{"status": "SUCCESS", "action_taken": "did it"}\n```\n';

interface Result {
  status: string;
  failure: { class: string; detail: string } | null;
  run_dir: string;
}

const ref = (repo: string, name: string) => git(repo, 'for-each-ref', '--format=%(objectname)', name).trim();

describe('gc removes the CLI refs our runs created (issue 27, D3)', binarySuite(), () => {
  it("a fake cline's checkpoint ref is reported and recorded by the run, and gc deletes it; a person's refs/cline/checkpoints/mine/1 stays", async () => {
    const box = await makeSandbox();
    const fakes = await fakeClis(['cline']);
    await writeFile(join(fakes, 'reply.md'), `Done.\n\n${IMPLEMENTED}`);
    const repo = await makeRepo({ 'a.txt': 'one\n' });
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'update-ref', 'refs/cline/checkpoints/mine/1', head);
    // As cline does from its worktree: the checkpoint names a commit of the worktree's state, in the shared refs.
    const sh = 'echo work > work.txt && git update-ref refs/cline/checkpoints/task-1/1 "$(git commit-tree "$(git write-tree)" -p HEAD -m checkpoint)"';
    const out = await box.run(['run', 'implementer', '--cli', 'cline', '--task', 'Do it', '--retries', '0', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}`, FAKE_CLI_REPLY_FILE: join(fakes, 'reply.md'), FAKE_CLI_SH: sh },
    });
    const result = JSON.parse(out.stdout) as Result;
    assert.equal(result.failure?.class, 'escaped_worktree', out.stderr);
    assert.match(result.failure!.detail, /refs created: refs\/cline\/checkpoints\/task-1\/1/);
    const checkpoint = ref(repo, 'refs/cline/checkpoints/task-1/1');
    assert.match(checkpoint, /^[0-9a-f]{40}$/);
    const events = readFileSync(join(result.run_dir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; refs?: unknown });
    assert.deepEqual(events.find((e) => e.kind === 'refs_created')?.refs, [{ ref: 'refs/cline/checkpoints/task-1/1', oid: checkpoint }]);

    const dry = await box.run(['gc', '--dry-run', '--json'], { cwd: repo, env: { PATH: box.path } });
    assert.equal(dry.code, 0, dry.stderr);
    assert.ok((JSON.parse(dry.stdout) as { removed: { kind: string; name: string }[] }).removed.some((i) => i.kind === 'ref' && i.name === 'refs/cline/checkpoints/task-1/1'), dry.stdout);
    assert.equal(ref(repo, 'refs/cline/checkpoints/task-1/1'), checkpoint, 'a dry run removes nothing');

    const gc = await box.run(['gc', '--json'], { cwd: repo, env: { PATH: box.path } });
    assert.equal(gc.code, 0, gc.stderr);
    const removed = (JSON.parse(gc.stdout) as { removed: { kind: string; name: string }[] }).removed.filter((i) => i.kind === 'ref').map((i) => i.name);
    assert.deepEqual(removed, ['refs/cline/checkpoints/task-1/1']);
    assert.equal(ref(repo, 'refs/cline/checkpoints/task-1/1'), '', 'the run\'s checkpoint is gone');
    assert.equal(ref(repo, 'refs/cline/checkpoints/mine/1'), head, 'the person\'s own checkpoint stays');
  });

  it('gc keeps a recorded checkpoint ref that moved since the run (compare-and-swap)', async () => {
    const box = await makeSandbox();
    const fakes = await fakeClis(['cline']);
    await writeFile(join(fakes, 'reply.md'), `Done.\n\n${IMPLEMENTED}`);
    const repo = await makeRepo({ 'a.txt': 'one\n' });
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const sh = 'git update-ref refs/cline/checkpoints/task-2/1 "$(git commit-tree "$(git write-tree)" -p HEAD -m checkpoint)"';
    const out = await box.run(['run', 'implementer', '--cli', 'cline', '--task', 'Do it', '--retries', '0', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}`, FAKE_CLI_REPLY_FILE: join(fakes, 'reply.md'), FAKE_CLI_SH: sh },
    });
    assert.equal((JSON.parse(out.stdout) as Result).failure?.class, 'escaped_worktree', out.stderr);
    git(repo, 'update-ref', 'refs/cline/checkpoints/task-2/1', head);
    const gc = await box.run(['gc', '--json'], { cwd: repo, env: { PATH: box.path } });
    assert.equal(gc.code, 0, gc.stderr);
    assert.ok((JSON.parse(gc.stdout) as { kept: { kind: string; name: string }[] }).kept.some((i) => i.kind === 'ref' && i.name === 'refs/cline/checkpoints/task-2/1'), gc.stdout);
    assert.equal(ref(repo, 'refs/cline/checkpoints/task-2/1'), head);
  });
});
