/**
 * A role's verdict field (issue 14, item 1): the built-in oneshot role answers in llm-chat,
 * whose verdict is `action` (COMPLETED, STUCK, RETRY), not `status`; a role may name its own.
 * Through the CLI on real repositories with the fake cline (its real envelope) on PATH.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeRepo, writeFiles } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';
import { fakeEnv, fenced, replies, runJson } from './_run.ts';

const answer = (action: string) => ({ action, evidence_files: [], summary_for_supervisor: `Reported ${action}.` });

describe('the verdict field of a role', () => {
  it('oneshot: COMPLETED passes (exit 0), RETRY is gaps (exit 1), STUCK is an error (exit 1)', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const cases = [
      ['COMPLETED', 'pass', 0],
      ['RETRY', 'gaps', 1],
      ['STUCK', 'error', 1],
    ] as const;
    for (const [action, status, code] of cases) {
      const run = await runJson(repo, ['oneshot', '--task', 'say done'], { FAKE_CLI_REPLY_FILE: await replies(fenced(answer(action))) });
      assert.equal(run.code, code, `${action}: ${run.stderr}`);
      assert.equal(run.result.status, status, action);
      assert.equal(run.result.reported_status, action);
      assert.equal(run.result.failure, null);
    }
  });

  it('a role names its field with config.verdict_field; a field its closed schema lacks is a usage error', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const schema = { type: 'object', additionalProperties: false, required: ['outcome'], properties: { outcome: { type: 'string' } } };
    await writeFiles(repo, {
      '.supervisor/roles/judge.yaml': 'name: judge\ndescription: judges\ncli: claude\nsystem_prompt: Judge.\noutput_schema: judge.json\nconfig:\n  verdict_field: outcome\n',
      '.supervisor/roles/judge.json': JSON.stringify(schema),
      '.supervisor/roles/wrong.yaml': 'name: wrong\ndescription: judges\ncli: claude\nsystem_prompt: Judge.\noutput_schema: judge.json\nconfig:\n  verdict_field: verdict\n',
    });
    const run = await runJson(repo, ['judge', '--task', 'judge'], { FAKE_CLI_REPLY_FILE: await replies(fenced({ outcome: 'APPROVED' })) });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.result.status, 'pass');
    assert.equal(run.result.reported_status, 'APPROVED');
    const wrong = await runCli(['run', 'wrong', '--task', 'judge'], { cwd: repo, env: fakeEnv() });
    assert.equal(wrong.code, 2, wrong.stderr);
    assert.match(wrong.stderr, /verdict field "verdict" is not a field of the output schema/);
  });
});
