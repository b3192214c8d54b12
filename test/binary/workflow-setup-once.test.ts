/**
 * Set-up once (issue 28, item 3), through the built binary: the set-up command appends to a
 * counter outside every worktree. Over a workflow's whole life at --jobs 2 (run, reject,
 * approve, resume, retry) it runs at most once per slot: the slots and what set-up made there
 * are kept from command to command. A lock file that changed runs it again.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { binarySuite } from './binary.ts';
import { tempDir } from '../helpers/git-repo.ts';
import { byId, calls, events, plan, step, wf, world } from './_workflow-world.ts';

const count = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0);

describe('set-up once over a workflow\'s life, from the binary', binarySuite(), () => {
  it('run, reject, approve, resume and retry of a 3-task workflow at --jobs 2 run set-up at most twice', async () => {
    const w = await world({ 'README.md': '# demo\n', 'package-lock.json': '{"lockfileVersion":3}\n' });
    const counter = join(w.script, 'setup-count');
    const flag = join(w.script, 'c-may-pass');
    const file = await plan(w, [
      'name: setup once',
      `setup: ['echo x >> "${counter}"']`,
      'tasks:',
      '  - { id: a, title: A, task: Do a., cli: claude, review: none, approve: true }',
      '  - { id: b, title: B, task: Do b., cli: claude, review: none }',
      `  - { id: c, title: C, task: Do c., cli: claude, review: none, max_rounds: 1, gates: ['test -f "${flag}"'] }`,
      '',
    ].join('\n'));
    const first = await wf(w, ['run', file, '--jobs', '2']);
    assert.equal(first.code, 5, first.stderr);
    const id = first.result.workflow_id;
    assert.equal(byId(first.result).a!.status, 'awaiting_approval');
    assert.notEqual(byId(first.result).c!.status, 'integrated');
    assert.ok(count(counter) <= 2, `run: ${count(counter)} set-ups`);
    const logs = await w.box.run(['workflow', 'logs', id], { cwd: w.repo, env: w.env });
    assert.match(logs.stdout, /\[a +set-up\] +running `echo x >>/, 'workflow logs shows set-up');
    assert.match(logs.stdout, /\[a +set-up\] +`echo x >> .*` exited 0 in \d/);

    const rejected = await wf(w, ['reject', id, 'a', '--issues', 'name the file better']);
    assert.equal(rejected.code, 5, rejected.stderr);
    assert.equal(byId(rejected.result).a!.rounds, 2, 'the worker ran again after the rejection');
    const approved = await wf(w, ['approve', id, 'a', '--no-resume']);
    assert.equal(approved.code, 0, approved.stderr);
    const resumed = await wf(w, ['resume', id]);
    assert.equal(byId(resumed.result).a!.status, 'integrated', resumed.stderr);
    await writeFile(flag, '');
    const retried = await wf(w, ['retry', id, 'c', '--fresh']);
    assert.equal(retried.code, 0, retried.stderr);
    assert.equal(retried.result.status, 'pass', JSON.stringify(retried.result.tasks));

    assert.ok(count(counter) <= 2, `set-up ran ${count(counter)} times over run, reject, approve, resume and retry`);
    const started = events(w, id).filter((e) => e.kind === 'setup' && e.step === 'command_started');
    assert.equal(started.length, count(counter), 'every set-up that ran is in the record');
  });

  it('a task whose branch changed the lock file gets set-up again in the same slot', async () => {
    const w = await world({ 'README.md': '# demo\n', 'package-lock.json': '{"lockfileVersion":3}\n' });
    const counter = join(w.script, 'setup-count');
    await step(w, 'a/worker', {
      edits: { 'package-lock.json': '{"lockfileVersion":3,"packages":{"x":{}}}\n' },
      commit: false,
      reply: 'role: worker\ntask_id: {{TASK_ID}}\nstatus: pass\ngit_range: {{GIT_RANGE}}\nfiles_changed: package-lock.json\n\nAdded x.\n',
    });
    const file = await plan(w, [
      'name: lock changes',
      `setup: ['echo x >> "${counter}"']`,
      'tasks:',
      '  - { id: a, title: A, task: Do a., cli: claude, review: none }',
      '  - { id: b, title: B, task: Do b., cli: claude, review: none, depends_on: [a] }',
      '  - { id: c, title: C, task: Do c., cli: claude, review: none, depends_on: [b] }',
      '',
    ].join('\n'));
    const ran = await wf(w, ['run', file, '--jobs', '1']);
    assert.equal(ran.code, 0, ran.stderr);
    // a: the first set-up; b: the lock file a changed; c: the same lock file as b, nothing.
    assert.equal(count(counter), 2);
  });

  it('a kept slot whose .git a CLI rewrote is not taken back: it goes, and a new slot gets set-up', async () => {
    const w = await world({ 'README.md': '# demo\n' });
    const counter = join(w.script, 'setup-count');
    const file = await plan(w, `name: tampered\nsetup: ['echo x >> "${counter}"']\ntasks:\n  - { id: a, title: A, task: Do a., cli: claude, review: none, approve: true }\n`);
    const first = await wf(w, ['run', file]);
    assert.equal(first.code, 5, first.stderr);
    const id = first.result.workflow_id;
    const kept = events(w, id).filter((e) => e.kind === 'slots_kept').at(-1)?.slots as { path: string }[] | undefined;
    assert.equal(kept?.length, 1, 'the slot with its set-up is kept for the next command');
    const slot = kept[0]!.path;
    const elsewhere = await tempDir('sv-elsewhere-');
    await writeFile(join(slot, '.git'), `gitdir: ${elsewhere}\n`);
    const rejected = await wf(w, ['reject', id, 'a', '--issues', 'again']);
    assert.equal(rejected.code, 5, rejected.stderr);
    assert.equal(count(counter), 2, 'set-up ran again, in a new slot');
    assert.ok(!existsSync(slot), 'the rewritten slot is gone');
    assert.deepEqual(readdirSync(elsewhere), [], 'nothing written where its .git pointed');
    assert.ok(calls(w).filter((c) => c.role === 'worker').at(-1)!.cwd !== slot, 'the worker ran elsewhere');
  });
});
