/**
 * What `supervisor mcp` starts lives only while its client wants it, from the built binary:
 * a workflow started with `wait: false` goes on and is followed to `pass` through
 * workflow_status; a cancelled `run` ends its CLI's process tree as Ctrl-C does; a client
 * that disconnects mid-workflow leaves it `interrupted`, and `supervisor workflow resume`
 * finishes it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';
import { alive } from '../helpers/processes.ts';
import { connect, fakeClis, until, type Connection } from './mcp-client.ts';

/** A task gate that commits a line: replay's worker changes no file, and an empty change is never integrated. */
const COMMIT = `    gates: ['echo "$SUPERVISOR_TASK_ID" >> done.txt && git add done.txt && git -c user.name=t -c user.email=t@t commit -qm "$SUPERVISOR_TASK_ID"']\n`;
const gate = (cli: string) => (cli === 'replay' ? COMMIT : '');
const twoTasks = (cli: string) =>
  `name: mcp flow\ntasks:\n  - id: a\n    title: task a\n    task: Do a.\n    cli: ${cli}\n${gate(cli)}  - id: b\n    title: task b\n    task: Do b.\n    cli: ${cli}\n    depends_on: [a]\n${gate(cli)}`;

/** The plans here lie outside the repository and have gates: an MCP client's files there are the user's only with --trust (SECURITY.md). */
const TRUSTED = { args: ['--trust'] };

const structured = <T>(result: unknown) => (result as CallToolResult).structuredContent as T;

interface Status {
  status: string;
  tasks: { id: string; status: string; runs: { run_id: string }[] }[];
}

describe('supervisor mcp: runs and workflows live with the client, from the binary', binarySuite(), () => {
  let box: Sandbox;
  let fakes: string;
  const open: Connection[] = [];
  before(async () => {
    box = await makeSandbox();
    fakes = await fakeClis(['claude']);
  });
  after(async () => {
    for (const c of open) await c.client.close();
  });
  const world = async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n', 'math.js': 'export const add = (a, b) => a + b;\n' });
    const scratch = await tempDir('sv-mcp-');
    return { repo, scratch, before: snapshotCheckout(repo) };
  };

  it('workflow_run with wait: false answers with the id at once; workflow_status follows it to pass', async () => {
    const { repo, scratch, before: checkout } = await world();
    const plan = join(scratch, 'plan.yaml');
    await writeFile(plan, twoTasks('replay'));
    const c = await connect(box, repo, TRUSTED);
    open.push(c);
    const started = structured<{ workflow_id: string; status: string; branch: string }>(await c.client.callTool({ name: 'workflow_run', arguments: { file: plan, wait: false } }));
    assert.equal(started.status, 'running');
    assert.equal(started.branch, `supervisor/wf/${started.workflow_id}`);
    const final = await until(async () => {
      const view = structured<Status>(await c.client.callTool({ name: 'workflow_status', arguments: { id: started.workflow_id } }));
      return view.status === 'running' ? undefined : view;
    });
    assert.equal(final.status, 'pass');
    assert.deepEqual(final.tasks.map((t) => [t.id, t.status]), [['a', 'integrated'], ['b', 'integrated']]);
    const shown = structured<{ tasks: { id: string; task: string; round_details: { round: number; runs: { role: string }[] }[] }[] }>(
      await c.client.callTool({ name: 'workflow_show', arguments: { id: started.workflow_id, task: 'b' } }),
    );
    assert.deepEqual(shown.tasks.map((t) => [t.id, t.task, t.round_details.map((r) => r.round)]), [['b', 'Do b.', [1]]]);
    assert.equal(shown.tasks[0]!.round_details[0]!.runs[0]!.role, 'worker');
    const resource = await c.client.readResource({ uri: `supervisor://workflows/${started.workflow_id}` });
    assert.equal((JSON.parse((resource.contents[0] as { text: string }).text) as Status).status, 'pass');
    assert.deepEqual(c.protocolErrors, []);
    assertCheckoutUnchanged(repo, checkout);
  });

  it('workflow_run waiting for the result reports each task state as progress', async () => {
    const { repo, scratch } = await world();
    const plan = join(scratch, 'plan.yaml');
    await writeFile(plan, twoTasks('replay'));
    const c = await connect(box, repo, TRUSTED);
    open.push(c);
    const progress: string[] = [];
    const result = structured<Status & { exit_code: number }>(
      await c.client.callTool({ name: 'workflow_run', arguments: { file: plan } }, undefined, { onprogress: (p) => void progress.push(String(p.message)) }),
    );
    assert.equal(result.status, 'pass');
    assert.equal(result.exit_code, 0);
    assert.ok(progress.includes('workflow: a: running worker (replay), round 1'), progress.join('\n'));
    assert.ok(progress.includes('workflow: b: integrated'), progress.join('\n'));
  });

  it('workflow_approve merges a task held for approval and continues the workflow to pass', async () => {
    const { repo, scratch } = await world();
    const plan = join(scratch, 'plan.yaml');
    await writeFile(plan, `name: held\ntasks:\n  - id: a\n    title: task a\n    task: Do a.\n    cli: replay\n    approve: true\n${COMMIT}`);
    const c = await connect(box, repo, TRUSTED);
    open.push(c);
    const held = structured<{ workflow_id: string; status: string }>(await c.client.callTool({ name: 'workflow_run', arguments: { file: plan } }));
    assert.equal(held.status, 'awaiting_approval');
    const approved = structured<Status>(await c.client.callTool({ name: 'workflow_approve', arguments: { id: held.workflow_id, tasks: ['a'] } }));
    assert.equal(approved.status, 'pass');
    assert.deepEqual(approved.tasks.map((t) => [t.id, t.status]), [['a', 'integrated']]);
    assert.deepEqual(c.protocolErrors, []);
  });

  it("cancelling a running run ends its CLI's process tree; the run is recorded interrupted", async () => {
    const { repo, scratch } = await world();
    const log = join(scratch, 'calls.jsonl');
    const grandchild = join(scratch, 'grandchild.pid');
    const c = await connect(box, repo, {
      env: { PATH: `${fakes}:${box.path}`, FAKE_CLI_LOG: log, FAKE_CLI_GRANDCHILD: '1', FAKE_CLI_GRANDCHILD_PID_FILE: grandchild, FAKE_CLI_HANG: '1' },
    });
    open.push(c);
    const cancel = new AbortController();
    const call = c.client.callTool({ name: 'run', arguments: { role: 'reviewer', task: 'Review math.js', targets: ['math.js'], cli: 'claude' } }, undefined, { signal: cancel.signal });
    const pids = await until(() =>
      existsSync(grandchild) && existsSync(log) && readFileSync(grandchild, 'utf8') ? [(JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!) as { pid: number }).pid, Number(readFileSync(grandchild, 'utf8'))] : undefined,
    );
    assert.ok(pids.every(alive), 'the CLI and its grandchild run');
    cancel.abort('the test cancels');
    await assert.rejects(call);
    const run = await until(async () => {
      const { runs } = structured<{ runs: { run_id: string; state: string }[] }>(await c.client.callTool({ name: 'runs_list', arguments: {} }));
      return runs[0]?.state === 'finished' ? runs[0] : undefined;
    });
    const shown = structured<{ result: { status: string; exit_code: number; failure: { class: string } } }>(await c.client.callTool({ name: 'runs_show', arguments: { id: run.run_id } }));
    assert.equal(shown.result.status, 'error');
    assert.equal(shown.result.failure.class, 'interrupted');
    assert.equal(shown.result.exit_code, 130);
    assert.deepEqual(pids.filter(alive), [], 'the whole process tree is gone');
    // The server is still there for the next call.
    assert.ok((await c.client.listTools()).tools.length > 0);
    assert.deepEqual(c.protocolErrors, []);
  });

  it('a client that disconnects mid-workflow: the workflow is interrupted, its CLI ended, the server exits; workflow resume finishes it', async () => {
    const { repo, scratch, before: checkout } = await world();
    const plan = join(scratch, 'plan.yaml');
    await writeFile(plan, twoTasks('claude'));
    const script = join(scratch, 'script');
    await mkdir(join(script, 'a'), { recursive: true });
    await writeFile(join(script, 'a', 'worker.json'), JSON.stringify({ hang: true }));
    const env = { PATH: `${fakes}:${box.path}`, FAKE_CLI_SCRIPT: script, SUPERVISOR_KILL_GRACE_MS: '300', SUPERVISOR_RETRY_BACKOFF_MS: '10' };
    const c = await connect(box, repo, { env });
    const started = structured<{ workflow_id: string }>(await c.client.callTool({ name: 'workflow_run', arguments: { file: plan, wait: false } }));
    // The worker of task a is running (and hangs) when the client goes away.
    const calls = join(script, '.calls.jsonl');
    // Its first finished line: the file exists, empty, from the fake's open on.
    const firstLine = () => /^(.*)\n/.exec(existsSync(calls) ? readFileSync(calls, 'utf8') : '')?.[1];
    const cli = await until(() => {
      const line = firstLine();
      return line === undefined ? undefined : (JSON.parse(line) as { pid: number }).pid;
    });
    assert.equal(await c.disconnect(), 0, c.stderr());
    assert.match(c.stderr(), /the client disconnected: interrupting/);
    assert.ok(!alive(cli), "the worker's CLI was ended");

    const status = await box.run(['workflow', 'status', started.workflow_id, '--json'], { cwd: repo, env });
    const view = JSON.parse(status.stdout) as Status;
    assert.equal(view.status, 'interrupted', status.stderr);
    assert.deepEqual(view.tasks.map((t) => [t.id, t.status]), [['a', 'pending'], ['b', 'pending']]);

    await rm(join(script, 'a', 'worker.json'));
    const resumed = await box.run(['workflow', 'resume', started.workflow_id, '--json'], { cwd: repo, env });
    assert.equal(resumed.code, 0, resumed.stderr);
    const result = JSON.parse(resumed.stdout) as Status & { branch: string };
    assert.equal(result.status, 'pass');
    assert.match(git(repo, 'show', `${result.branch}:work/a.txt`), /done by a/);
    assertCheckoutUnchanged(repo, checkout);
  });
});
