/**
 * I2 through the built binary, with real bubblewrap: what a worker wrote runs only inside the
 * sandbox the user chose. A worker commits check.sh (and setup.sh); the plan's workflow gate
 * `sh check.sh` and its set-up `sh setup.sh` run them. Each script reports its PID namespace
 * and whether it sees a variable outside the allowlist, and leaves a setsid daemon behind.
 * With `--sandbox bwrap`, and with no flag when the user's own roles choose bwrap: not the
 * host's PID namespace, no unlisted variable, and no daemon alive after the workflow. Without
 * a sandbox (the user's choice) the daemon is still ended.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { chmod, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { missingBwrap, requires } from '../helpers/requires.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const fakeBin = fileURLToPath(new URL('../fixtures/bin/', import.meta.url));
const SECRET = 'E03_UNLISTED_SECRET';
const HOST_PIDNS = readlinkSync('/proc/self/ns/pid');

function suite(): { skip?: string } {
  const binary = binarySuite();
  return binary.skip ? binary : requires(missingBwrap());
}

/** The script a worker commits: where it runs, what it sees, and a daemon that tries to outlive it. */
function probeScript(label: string, marker: string, exit: number): string {
  return [
    `echo "${label} pidns=$(readlink /proc/self/ns/pid)"`,
    `echo "${label} secret=\${${SECRET}:-absent}"`,
    `/usr/bin/setsid /bin/sh -c 'sleep 300; : ${marker}' >/dev/null 2>&1 < /dev/null &`,
    `exit ${exit}`,
    '',
  ].join('\n');
}

/** Processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(join('/proc', entry, 'cmdline'), 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

interface Events {
  kind: string;
  command?: string;
  output?: string;
  output_tail?: string;
}

describe('workflow gates and set-up run what workers wrote inside the chosen sandbox (I2, E03), from the binary', suite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  /** A repository, a fake claude whose worker commits check.sh and setup.sh, and the tools bwrap needs on PATH. */
  async function world(marker: string) {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const fakes = await tempDir('sv-e03-');
    for (const file of ['claude', '_fake-cli.mjs', '_fake-envelopes.mjs', '_fake-script.mjs']) await copyFile(join(fakeBin, file), join(fakes, file));
    await writeFile(join(fakes, 'check.sh'), probeScript('gate', `${marker}-gate`, 1));
    await writeFile(join(fakes, 'setup.sh'), probeScript('setup', `${marker}-setup`, 0));
    await writeFile(join(fakes, 'reply.md'), 'role: worker\ntask_id: none\nstatus: pass\ngit_range: HEAD~1..HEAD\nfiles_changed: check.sh\n\nDone.\n');
    await writeFile(
      join(fakes, 'claude-wrapper'),
      `#!/bin/sh\nif [ "$SUPERVISOR_TASK_ID" = a ]; then cat "${fakes}/check.sh" > check.sh; cat "${fakes}/setup.sh" > setup.sh; fi\necho "$SUPERVISOR_TASK_ID" > "work-$SUPERVISOR_TASK_ID.txt"\nFAKE_CLI_REPLY_FILE="${fakes}/reply.md" exec "${process.execPath}" "${join(fakes, 'claude')}" "$@"\n`,
    );
    await chmod(join(fakes, 'claude-wrapper'), 0o755);
    const bin = join(fakes, 'bin');
    await mkdir(bin);
    await symlink(join(fakes, 'claude-wrapper'), join(bin, 'claude'));
    for (const tool of ['bwrap', 'prlimit', 'readlink']) {
      const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (path) await symlink(path, join(bin, tool));
    }
    const env = { PATH: `${bin}:${box.path}`, SUPERVISOR_KILL_GRACE_MS: '300', SUPERVISOR_RETRY_BACKOFF_MS: '10', [SECRET]: 'hunter2' };
    return { repo, fakes, env };
  }

  async function runPlan(w: Awaited<ReturnType<typeof world>>, plan: string, args: string[]) {
    const file = join(w.fakes, 'plan.yaml');
    await writeFile(file, plan);
    const run = await box.run(['workflow', 'run', file, '--jobs', '1', '--json', ...args], { cwd: w.repo, env: w.env });
    let result: { workflow_id: string; status: string };
    try {
      result = JSON.parse(run.stdout);
    } catch {
      throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
    }
    const events = readFileSync(join(w.repo, '.supervisor', 'workflows', result.workflow_id, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Events);
    // Everything the gates and set-up printed, from the event log.
    const said = events.map((e) => `${e.output ?? ''}${e.output_tail ?? ''}`).join('\n');
    return { run, said, events };
  }

  function assertConfined(said: string, label: string, marker: string): void {
    const pidns = new RegExp(`${label} pidns=(\\S+)`).exec(said)?.[1];
    assert.ok(pidns, `the ${label} ran and reported its PID namespace:\n${said}`);
    assert.notEqual(pidns, HOST_PIDNS, `the ${label} ran in the host's PID namespace`);
    assert.match(said, new RegExp(`${label} secret=absent`), `the ${label} saw ${SECRET}, which is not allowlisted`);
    assert.deepEqual(processesWith(`${marker}-${label}`), [], `the ${label}'s daemon outlived the workflow`);
  }

  const gatedPlan = (gatesOn: string) =>
    `name: e03\ngates: [sh check.sh]\ngates_on: ${gatesOn}\ntasks:\n  - id: a\n    title: task a\n    task: Do a.\n    cli: claude\n    review: none\n    max_rounds: 1\n`;

  for (const gatesOn of ['merge', 'end']) {
    it(`--sandbox bwrap: the workflow gate (gates_on: ${gatesOn}) runs the worker's check.sh in a PID namespace of its own, without unlisted variables, and its daemon is ended`, async () => {
      const marker = `e03-${gatesOn}-${process.pid}-${Date.now()}`;
      const w = await world(marker);
      const { said, run } = await runPlan(w, gatedPlan(gatesOn), ['--sandbox', 'bwrap']);
      assert.notEqual(run.code, 0, 'the gate fails on purpose (its output is the evidence)');
      assertConfined(said, 'gate', marker);
    });
  }

  it("roles that choose bwrap (no --sandbox): the workflow's set-up runs the script an earlier worker committed inside bwrap, and so do the gates", async () => {
    const marker = `e03-role-${process.pid}-${Date.now()}`;
    const w = await world(marker);
    const roles = join(box.home, '.supervisor', 'roles');
    await mkdir(roles, { recursive: true });
    await writeFile(join(roles, 'boxed-worker.yaml'), 'name: boxed-worker\nextends: worker\nsandbox: bwrap\n');
    const plan = [
      'name: e03-role',
      'setup: ["if [ -f setup.sh ]; then sh setup.sh; fi"]',
      'setup_once: false',
      'gates: [sh check.sh]',
      'gates_on: end',
      'defaults:',
      '  worker: boxed-worker',
      'tasks:',
      '  - id: a\n    title: task a\n    task: Do a.\n    cli: claude\n    review: none\n    max_rounds: 1',
      '  - id: b\n    title: task b\n    task: Do b.\n    cli: claude\n    review: none\n    max_rounds: 1\n    depends_on: [a]',
      '',
    ].join('\n');
    const { said } = await runPlan(w, plan, []);
    assertConfined(said, 'setup', marker);
    assertConfined(said, 'gate', marker);
  });

  it('--sandbox none (the user chose no sandbox): the gate runs on the host, and its daemon is still ended', async () => {
    const marker = `e03-none-${process.pid}-${Date.now()}`;
    const w = await world(marker);
    const { said } = await runPlan(w, gatedPlan('merge'), ['--sandbox', 'none']);
    assert.match(said, /gate pidns=/);
    assert.deepEqual(processesWith(`${marker}-gate`), [], "the gate's daemon outlived the workflow");
  });
});
