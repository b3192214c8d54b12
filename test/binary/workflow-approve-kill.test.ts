/**
 * An approval survives an interrupt, end to end through the built binary: approve, kill -9 while
 * the merge's gates run, resume: the task is merged without asking again, and nothing said
 * about the approval is false.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git } from '../helpers/git-repo.ts';
import { binarySuite } from './binary.ts';
import { byId, calls, events, kill9, plan, waitFor, wf, world } from './_workflow-world.ts';

describe('an approval that survives a kill, from the binary', binarySuite(), () => {
  it('approve, kill -9 during the gates that follow, resume: merged, not held again, the approver in its trailer', async () => {
    const w = await world({ 'README.md': '# demo\n' });
    const count = join(w.script, 'gate-count');
    // The gates' first run hangs (the kill comes then); later runs pass.
    const gate = `echo x >> "${count}"; if [ "$(wc -l < "${count}")" -eq 1 ]; then sleep 600; fi`;
    const file = await plan(w, `name: approve kill\ngates:\n  - '${gate}'\ntasks:\n  - { id: held, title: Held, task: Do held., cli: claude, review: none, approve: true }\n`);
    const first = await wf(w, ['run', file]);
    assert.equal(first.code, 5, first.stderr);
    const id = first.result.workflow_id;

    const approving = spawn(w.box.binary, ['workflow', 'approve', id, 'held'], { cwd: w.repo, env: w.box.env(w.env), stdio: 'ignore' });
    await waitFor(() => existsSync(count));
    await kill9(approving);

    const resumed = await wf(w, ['resume', id]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.result.status, 'pass', JSON.stringify(resumed.result.tasks));
    const held = byId(resumed.result).held!;
    assert.equal(held.status, 'integrated');
    assert.equal(held.runs.length, 1, 'no worker ran again');
    assert.equal(calls(w).filter((c) => c.role === 'worker').length, 1);
    const after = events(w, id).slice(events(w, id).findIndex((e) => e.kind === 'approval'));
    assert.ok(!after.some((e) => e.kind === 'task_state' && e.state === 'awaiting_approval'), 'not held for approval again');
    assert.ok(!after.some((e) => typeof e.reason === 'string' && /again|changed it/.test(e.reason)), 'no reason claims the work changed');
    assert.match(git(w.repo, 'log', '-1', '--format=%B', resumed.result.branch), /Supervisor-Approved-By: /);
    assert.equal(readFileSync(count, 'utf8').trim().split('\n').length, 2, 'the gates ran again on the resumed merge');
  });
});
