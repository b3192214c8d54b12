/** --on-event hooks: every event, in order, as one JSON line on stdin with SUPERVISOR_EVENT; a failing hook is a notice. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtinEntries } from '../../../../core/plugins/load.ts';
import { createRegistry } from '../../../../core/registry.ts';
import { createEventHooks } from '../../../../core/workflow/engine/event-hooks.ts';
import { runWorkflow } from '../../../../core/workflow/engine/run-workflow.ts';
import { WorkflowStore } from '../../../../core/workflow/engine/store.ts';
import { makeRepo, tempDir } from '../../../helpers/git-repo.ts';
import { task, workflow } from './_workflow.ts';

const registry = createRegistry(builtinEntries());

describe('on-event hooks', () => {
  it('get every workflow event in order (plan on_event and --on-event), with SUPERVISOR_EVENT; a failing hook is one notice', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const out = await tempDir('sv-hooks-');
    const notices: string[] = [];
    const result = await runWorkflow({
      repoRoot: repo,
      homeDir: await tempDir(),
      env: { ...process.env, HOOK_OUT: out },
      registry,
      cli: { byRole: {}, all: 'replay' },
      runDefaults: { graceMs: 200, backoffMs: 10 },
      workflow: workflow([task('a', { reviewers: [] }), task('b', { depends_on: ['a'], reviewers: [] })], { on_event: ['cat >> "$HOOK_OUT/events.jsonl"'] }),
      onEvent: ['echo "$SUPERVISOR_EVENT" >> "$HOOK_OUT/kinds"; pwd > "$HOOK_OUT/cwd"', 'exit 3'],
      onNotice: (m) => notices.push(m),
    });
    assert.equal(result.status, 'pass');
    const written = new WorkflowStore(repo, 'wf-test').events();
    const got = readFileSync(join(out, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
    assert.deepEqual(got, written, 'every event, in order, as written');
    assert.ok(got.some((e) => e.kind === 'workflow_finished'), 'the last event arrives before the workflow returns');
    assert.deepEqual(readFileSync(join(out, 'kinds'), 'utf8').trim().split('\n'), written.map((e) => e.kind), notices.join('\n'));
    assert.equal(readFileSync(join(out, 'cwd'), 'utf8').trim(), repo);
    const failing = notices.filter((n) => n.includes('`exit 3`'));
    assert.equal(failing.length, 2, notices.join('\n'));
    assert.match(failing[0]!, /failed on workflow_started \(exit 3\)/);
    assert.match(failing[1]!, new RegExp(`failed ${written.length} times in all`));
  });

  it('never blocks the caller: emit returns at once, a hook past its time limit is ended', async () => {
    const notices: string[] = [];
    const hooks = createEventHooks(['sleep 5'], { cwd: process.cwd(), env: process.env, timeoutMs: 200, onNotice: (m) => notices.push(m) });
    hooks.emit({ ts: 'now', kind: 'notice', message: 'x' });
    await hooks.drain();
    assert.match(notices[0]!, /timed out/);
  });
});
