/**
 * Issue 28 item 9 through the built binary: output that tells the truth. `workflow schema`
 * prints the plan's JSON schema (the binary's user has no schemas/ folder); a role typo in a plan
 * gets "did you mean" and a role code; the end of a passed run and `workflow finish` suggest the
 * same merge (fast-forward when possible, as `finish --into` does); a packed target is not
 * reported again as a glob that found nothing; a failing gate shows its first error and its
 * last lines.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { binarySuite } from './binary.ts';
import { events, plan, wf, world, yamlPlan } from './_workflow-world.ts';

describe('output that tells the truth (issue 28 item 9), from the binary', binarySuite(), () => {
  it('workflow schema prints the plan schema; a role typo says did you mean, as WORKFLOW_UNKNOWN_ROLE', async () => {
    const w = await world();
    const schema = await w.box.run(['workflow', 'schema'], { cwd: w.repo, env: w.env });
    assert.equal(schema.code, 0, schema.stderr);
    const parsed = JSON.parse(schema.stdout) as { title: string; properties: Record<string, unknown> };
    assert.ok(parsed.properties.tasks && parsed.properties.defaults, schema.stdout.slice(0, 200));
    const file = await plan(w, 'name: typo\ntasks:\n  - { id: a, title: A, task: Do a., worker: implementr }\n');
    const check = await w.box.run(['workflow', 'check', file, '--json'], { cwd: w.repo, env: w.env });
    assert.equal(check.code, 2);
    const error = (JSON.parse(check.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } }).error;
    assert.equal(error.code, 'WORKFLOW_UNKNOWN_ROLE');
    assert.match(error.message, /did you mean "implementer"/);
  });

  it('a passed run and workflow finish suggest the same git merge', async () => {
    const w = await world();
    const run = await w.box.run(['workflow', 'run', await plan(w, yamlPlan([{ id: 'p', review: 'none' }]))], { cwd: w.repo, env: w.env });
    assert.equal(run.code, 0, run.stderr);
    const suggested = /\(or: (git merge [^)]+)\)/.exec(run.stdout)?.[1];
    assert.ok(suggested, run.stdout);
    const id = /supervisor workflow finish (\S+)/.exec(run.stdout)![1]!;
    const finish = await wf(w, ['finish', id]);
    assert.equal((finish.result as unknown as { command: string }).command, suggested);
    // workflow logs is compact: the CLI's JSON envelope is one short line, not the raw JSON.
    const logs = await w.box.run(['workflow', 'logs', id], { cwd: w.repo, env: w.env });
    assert.equal(logs.code, 0, logs.stderr);
    assert.match(logs.stdout, /^\[p worker\] ‹result\/success› role: worker$/m);
    assert.doesNotMatch(logs.stdout, /\] \{"/);
  });

  it('no "no files left to pack for README*" when the target README.md was packed', async () => {
    const w = await world();
    const out = await w.box.run(['prompt', 'implementer', '--task', 'Fix the readme', '--target', 'README.md'], { cwd: w.repo, env: w.env });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /# demo/);
    assert.doesNotMatch(out.stderr, /no files/);
  });

  it("a failing workflow gate's recorded output is its first error line and its last lines, whole", async () => {
    const w = await world();
    // A lint run: one error early, then many warnings, then the summary.
    const gate = "sh -c 'echo \"index.js 3:7 error x is never used\"; i=0; while [ $i -lt 150 ]; do echo \"file$i.js 1:1 warning Unexpected console statement\"; i=$((i+1)); done; echo \"151 problems (1 error, 150 warnings)\"; exit 1'";
    const file = await plan(w, `name: lint\ngates: [${JSON.stringify(gate)}]\n${yamlPlan([{ id: 'p', review: 'none' }]).replace('name: test flow\n', '')}`);
    const run = await wf(w, ['run', file]);
    assert.notEqual(run.result.status, 'pass', run.stderr);
    // Sent back to the worker by the failing gate: the progress line names the gate, not "running , round 1".
    assert.match(run.stderr, /workflow: p: running, round 1 — gate `sh -c [^\n]*` failed on candidate/);
    assert.doesNotMatch(run.stderr, /running , round/);
    const gates = events(w, run.result.workflow_id).filter((e) => e.kind === 'gates' && e.passed === false);
    const tail = String(gates[0]?.output_tail);
    const lines = tail.split('\n');
    assert.equal(lines[0], 'index.js 3:7 error x is never used', tail);
    assert.equal(lines.at(-1), '151 problems (1 error, 150 warnings)');
    assert.ok(lines.slice(2).every((l) => /^file\d+\.js 1:1 warning Unexpected console statement$|^151 problems/.test(l)), 'whole lines only');
  });
});
