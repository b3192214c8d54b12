import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { dryRunRole } from '../../../core/run/dry-run.ts';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { harness } from './_fakes.ts';

describe('dryRunRole', () => {
  it("passes the adapter's notices on to the caller as a real run does", async () => {
    const repo = await makeRepo();
    const seen: string[] = [];
    const h = harness(repo, [], {
      adapter: {
        quietEnv: { NO_TELEMETRY: '1' },
        command: (request, ctx) => {
          ctx.notice('the model flag is ignored by this CLI');
          return { args: ['--print'], stdin: request.prompt, env: { EXTRA: 'a b' } };
        },
      },
      run: { onNotice: (m) => seen.push(m) },
    });
    const dry = await dryRunRole(h.options);
    assert.deepEqual(seen, ['the model flag is ignored by this CLI']);
    assert.deepEqual(dry.notices, seen);
    assert.deepEqual(dry.command.env, { NO_TELEMETRY: '1', EXTRA: 'a b' });
    assert.match(dry.command_line, /^git -C \S+ worktree add --detach -q \S+ HEAD && cd \S+ && NO_TELEMETRY=1 EXTRA='a b' fake-cli --print < \S+\/stdin\.txt$/);
    assert.deepEqual(dry.workspace, { mode: 'worktree', reason: null });
    assert.equal(h.calls.length, 0);
  });

  it('says why it would run in place', async () => {
    const plain = await dryRunRole(harness(await tempDir(), []).options);
    assert.deepEqual(plain.workspace, { mode: 'in-place', reason: 'not a git repository' });
    const asked = await dryRunRole(harness(await makeRepo(), [], { run: { worktree: false } }).options);
    assert.deepEqual(asked.workspace, { mode: 'in-place', reason: '--no-worktree was given' });
  });

  it('leaves no files folder behind when the adapter refuses the request', async () => {
    const tmp = await tempDir();
    const repo = await makeRepo();
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp; // where the dry run makes its files folder
    try {
      const h = harness(repo, [], {
        adapter: {
          command: () => {
            throw new Error('this CLI cannot take the request');
          },
        },
      });
      await assert.rejects(dryRunRole(h.options), /cannot take the request/);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    assert.deepEqual(await readdir(tmp), []);
  });
});

