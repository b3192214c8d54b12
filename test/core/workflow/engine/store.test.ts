/**
 * The workflow state folder read back: plan.json, result.json and events.jsonl are checked, a
 * corrupt one is WORKFLOW_CORRUPT naming the file (never INTERNAL), a line cut short by a kill
 * is skipped and dropped before the next append, plan and result are replaced atomically, and
 * the lock has one owner (pid + start time), stale locks taken over.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { LOCK_FILE } from '../../../../core/workflow/engine/lock.ts';
import { WorkflowStore } from '../../../../core/workflow/engine/store.ts';
import type { WorkflowResult } from '../../../../core/workflow/engine/result.ts';
import { tempDir } from '../../../helpers/git-repo.ts';
import { task, workflow } from './_workflow.ts';

const roots: string[] = [];
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

async function started(): Promise<WorkflowStore> {
  const root = await tempDir('sv-store-');
  roots.push(root);
  const store = new WorkflowStore(root, 'wf-test');
  store.create(workflow([task('a')]));
  store.append('workflow_started', { workflow_id: 'wf-test', file: 'plan.md', base: 'a'.repeat(40), branch: 'supervisor/wf/wf-test', jobs: 1, max_cost_usd: null, pid: process.pid });
  store.append('task_state', { task: 'a', state: 'integrated', round: 1 });
  return store;
}

function result(): WorkflowResult {
  return {
    workflow_id: 'wf-test', name: 'test', status: 'interrupted', exit_code: 130, branch: 'supervisor/wf/wf-test', git_range: 'a..b', tasks: [],
    gates: { passed: null, failed: null }, metrics: { cost_usd: 0, cost_known: true, cost_source: null, input_tokens: 0, output_tokens: 0, runs: 0, duration_ms: 0 },
    budget: { ceiling_usd: null, min_run_usd: 0.01, spent_usd: 0, reserved_usd: 0, unknown_cost_runs: 0, enforced: true },
    merge_queue: { gates_on: null, candidates: 0, waited_ms: 0, gates_ms: 0 }, stop_reason: null, retries: [],
    notices: [], state_dir: '', started_at: '', finished_at: '',
  };
}

function corruptIn(store: WorkflowStore, file: string, problem: RegExp) {
  return (error: unknown) => {
    const e = error as { code: string; details: { file: string; problem: string } };
    assert.equal(e.code, 'WORKFLOW_CORRUPT');
    assert.equal(e.details.file, join(store.dir, file));
    assert.match(e.details.problem, problem);
    return true;
  };
}

describe('workflow store: state read back', () => {
  it('a half-written plan.json, a result.json of the wrong shape and a garbage events line are WORKFLOW_CORRUPT naming the file', async () => {
    const plan = await started();
    writeFileSync(join(plan.dir, 'plan.json'), '{"id": "wf-test", "tasks": [');
    assert.throws(() => plan.plan(), corruptIn(plan, 'plan.json', /not JSON/));
    assert.throws(() => plan.read(), corruptIn(plan, 'plan.json', /not JSON/));

    const res = await started();
    writeFileSync(join(res.dir, 'result.json'), '{"workflow_id": 3}\n');
    assert.throws(() => res.result(), corruptIn(res, 'result.json', /workflow_id/));

    const events = await started();
    const lines = readFileSync(events.eventsFile, 'utf8');
    writeFileSync(events.eventsFile, `${lines.split('\n')[0]}\n{not json\n${lines.split('\n')[1]}\n`);
    assert.throws(() => events.events(), corruptIn(events, 'events.jsonl', /line 2 is not JSON/));
    writeFileSync(events.eventsFile, `${lines.split('\n')[0]}\n{"ts":"x","kind":"task_state","task":"a","state":"done-ish"}\n`);
    assert.throws(() => events.events(), corruptIn(events, 'events.jsonl', /line 2 is not an event the engine writes \(task_state event at \/state/));
  });

  it('an empty events.jsonl is corrupt (else every task would look pending and run again)', async () => {
    const store = await started();
    writeFileSync(store.eventsFile, '');
    assert.throws(() => store.events(), corruptIn(store, 'events.jsonl', /empty/));
  });

  it('a last line cut short by a kill is skipped, and dropped before the next append', async () => {
    const store = await started();
    appendFileSync(store.eventsFile, '{"ts":"2026-01-01T00:00:00.000Z","kind":"task_st');
    assert.deepEqual(store.events().map((e) => e.kind), ['workflow_started', 'task_state']);
    const next = new WorkflowStore(join(store.dir, '..', '..', '..'), 'wf-test');
    next.append('workflow_resumed', { workflow_id: 'wf-test', pid: process.pid });
    assert.deepEqual(next.events().map((e) => e.kind), ['workflow_started', 'task_state', 'workflow_resumed']);
  });

  it('plan.json and result.json are replaced whole (a new file renamed over the old), never rewritten in place', async () => {
    const store = await started();
    store.writeResult(result());
    const first = statSync(join(store.dir, 'result.json')).ino;
    store.writeResult({ ...result(), status: 'stopped' });
    assert.notEqual(statSync(join(store.dir, 'result.json')).ino, first);
    assert.equal(store.result()?.status, 'stopped');
    const plan = statSync(join(store.dir, 'plan.json')).ino;
    store.create(workflow([task('a'), task('b')]));
    assert.notEqual(statSync(join(store.dir, 'plan.json')).ino, plan);
  });
});

describe('workflow store: one owner', () => {
  it('a second lock is WORKFLOW_BUSY naming the owner; after release it can be taken again', async () => {
    const store = await started();
    const lock = store.lock();
    assert.equal(store.owner()?.pid, process.pid);
    assert.throws(() => store.lock(), (e: { code: string; details: { pid: number } }) => e.code === 'WORKFLOW_BUSY' && e.details.pid === process.pid);
    lock.release();
    assert.equal(existsSync(join(store.dir, LOCK_FILE)), false);
    assert.equal(store.owner(), null);
    store.lock().release();
  });

  it('a lock held by another live process is busy; one of a dead process or a reused pid is stale and taken over', async (t) => {
    const store = await started();
    const file = join(store.dir, LOCK_FILE);
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    t.after(() => sleeper.kill('SIGKILL'));
    const startTime = readFileSync(`/proc/${sleeper.pid}/stat`, 'latin1').split(') ')[1]!.split(' ')[19]!;
    writeFileSync(file, JSON.stringify({ pid: sleeper.pid, start_time: startTime, acquired_at: 'x' }));
    assert.throws(() => store.lock(), (e: { code: string; details: { pid: number } }) => e.code === 'WORKFLOW_BUSY' && e.details.pid === sleeper.pid);

    // The same pid with another start time: the kernel gave the pid to a new process.
    writeFileSync(file, JSON.stringify({ pid: sleeper.pid, start_time: '1', acquired_at: 'x' }));
    const reused = store.lock();
    assert.equal(store.owner()?.pid, process.pid);
    reused.release();

    const dead = spawnSync('true').pid!;
    writeFileSync(file, JSON.stringify({ pid: dead, start_time: null, acquired_at: 'x' }));
    store.lock().release();

    writeFileSync(file, 'garbage');
    store.lock().release();
    assert.equal(existsSync(file), false);
  });
});
