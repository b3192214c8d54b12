/**
 * Process handling end to end: a timeout ends the CLI's whole process tree (grandchild
 * included), Ctrl-C on the real `supervisor` process exits 130 and cleans up, and two real
 * `supervisor run` processes share one repository.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { RunResult } from '../../core/run/result.ts';
import { worktreesDir } from '../../core/state-dir.ts';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { trackingMechanism } from '../../core/process/cgroup.ts';
import { cliCalls, eventKinds, fakeEnv, fenced, PROJECT_ROOT, replies, runJson } from './_run.ts';
import { alive, until } from '../helpers/processes.ts';
import { requires } from '../helpers/requires.ts';
import { runCli } from '../helpers/run-cli.ts';
import { which } from '../../core/process/which.ts';

const BIN = join(PROJECT_ROOT, 'bin/supervisor.mjs');

function spawnSupervisor(cwd: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...fakeEnv(env) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

/** Waits for the CLI under `child` to start (a start from source under load may take seconds); fails with supervisor's stderr when it ends first or never starts it. */
async function cliStarted(child: ChildProcess, done: Promise<{ stderr: string }>, started: () => boolean): Promise<void> {
  await until(() => started() || child.exitCode !== null || child.signalCode !== null, 30_000, 'the CLI to start').catch(() => {});
  if (started()) return;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT'); // not left running (with its CLI) past the test
  const { stderr } = await done;
  assert.fail(`no CLI started within 30 s, or supervisor ended first (${child.exitCode ?? child.signalCode}); it said: ${stderr}`);
}

describe('supervisor run: processes (end to end)', () => {
  it('a timeout ends the whole process tree, grandchild included, even when the CLI ignores TERM', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    const tmp = await tempDir();
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--timeout', '1', '--retries', '0'], {
      FAKE_CLI_HANG: '1',
      FAKE_CLI_IGNORE_TERM: '1',
      FAKE_CLI_GRANDCHILD: '1',
      FAKE_CLI_GRANDCHILD_PID_FILE: join(tmp, 'grandchild.pid'),
      FAKE_CLI_LOG: join(tmp, 'calls.jsonl'),
    });
    assert.equal(run.code, 4);
    assert.equal(run.result.failure?.class, 'timeout');
    assert.match(run.result.failure!.detail, /within 1s/);
    const cliPid = cliCalls(join(tmp, 'calls.jsonl'))[0]!.pid;
    const grandchild = Number(readFileSync(join(tmp, 'grandchild.pid'), 'utf8'));
    await until(() => !alive(cliPid) && !alive(grandchild), 3000, 'the CLI and its grandchild to be gone');
    assert.ok(!existsSync(run.result.worktree.path));
    assertCheckoutUnchanged(repo, before);
  });

  it('Ctrl-C mid-run: exit 130, interrupted recorded, CLI tree ended, worktree gone, checkout untouched', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const before = snapshotCheckout(repo);
    const tmp = await tempDir();
    const log = join(tmp, 'calls.jsonl');
    const { child, done } = spawnSupervisor(repo, ['run', 'implementer', '--task', 'change a', '--json'], {
      FAKE_CLI_HANG: '1',
      FAKE_CLI_GRANDCHILD: '1',
      FAKE_CLI_GRANDCHILD_PID_FILE: join(tmp, 'grandchild.pid'),
      FAKE_CLI_EDITS: JSON.stringify({ 'src/a.ts': 'half-done\n' }),
      FAKE_CLI_LOG: log,
    });
    await cliStarted(child, done, () => cliCalls(log).length === 1 && existsSync(join(tmp, 'grandchild.pid')));
    child.kill('SIGINT');
    const out = await done;
    assert.equal(out.code, 130, out.stderr);
    const result = JSON.parse(out.stdout) as RunResult;
    assert.equal(result.failure?.class, 'interrupted');
    assert.equal(result.exit_code, 130);
    const kinds = eventKinds(result);
    assert.ok(kinds.includes('interrupted'), kinds.join(','));
    assert.equal(kinds.at(-1), 'run_finished');
    assert.ok(kinds.includes('workspace_removed'));
    const cliPid = cliCalls(log)[0]!.pid;
    const grandchild = Number(readFileSync(join(tmp, 'grandchild.pid'), 'utf8'));
    await until(() => !alive(cliPid) && !alive(grandchild), 3000, 'the CLI tree to be gone');
    assert.deepEqual(readdirSync(worktreesDir(repo)), []);
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1);
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*'), '');
    assertCheckoutUnchanged(repo, before);
  });

  it('a supervisor killed outright (kill -9) leaves its events on disk; the next run recovers its worktree', async () => {
    const repo = await makeRepo();
    const tmp = await tempDir();
    const log = join(tmp, 'calls.jsonl');
    const { child, done } = spawnSupervisor(repo, ['run', 'reviewer', '--task', 'x'], {
      FAKE_CLI_HANG: '1',
      FAKE_CLI_LOG: log,
      FAKE_CLI_EDITS: JSON.stringify({ 'partial.txt': 'half' }),
    });
    await cliStarted(child, done, () => cliCalls(log).length === 1);
    child.kill('SIGKILL');
    await done;
    // The CLI outlives a supervisor killed outright; the next run's recovery ends its process group.
    const [id] = readdirSync(join(repo, '.supervisor/runs'));
    const kinds = readFileSync(join(repo, '.supervisor/runs', id!, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { kind: string }).kind);
    // (notices aside: a reviewer with nothing staged says there is nothing to review)
    assert.deepEqual(kinds.filter((k) => k !== 'notice'), ['run_started', 'prompt_built', 'workspace_ready', 'attempt_started', 'cli_started']);
    const { runCli } = await import('../helpers/run-cli.ts');
    const list = JSON.parse((await runCli(['runs', 'list', '--json'], { cwd: repo })).stdout) as { state: string; attempts: number }[];
    assert.deepEqual(list.map((r) => [r.state, r.attempts]), [['incomplete', 1]]);
    // the next run finds the dead run's worktree, keeps its work on a branch, and removes it
    const { runJson, replies, fenced } = await import('./_run.ts');
    const next = await runJson(repo, ['reviewer', '--task', 'y'], { FAKE_CLI_REPLY_FILE: await replies(fenced({ status: 'APPROVED', review_status: 'APPROVED' })) });
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.result.notices.join('\n'), new RegExp(`run ${id} was killed before it finished: its worktree is removed, its changes are on supervisor/${id}`));
    assert.equal(git(repo, 'show', `supervisor/${id}:partial.txt`), 'half');
    assert.deepEqual(readdirSync(worktreesDir(repo)), []);
  });

  it('two supervisor processes run at once in one repository', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    const reply = await replies(fenced({ status: 'SUCCESS', action_taken: 'x' }));
    const runs = ['one', 'two'].map((name) =>
      spawnSupervisor(repo, ['run', 'implementer', '--task', name, '--json'], {
        FAKE_CLI_REPLY_FILE: reply,
        FAKE_CLI_DELAY_MS: '300',
        FAKE_CLI_EDITS: JSON.stringify({ [`${name}.txt`]: name }),
      }).done,
    );
    const [a, b] = await Promise.all(runs);
    assert.equal(a!.code, 0, a!.stderr);
    assert.equal(b!.code, 0, b!.stderr);
    const ra = JSON.parse(a!.stdout) as RunResult;
    const rb = JSON.parse(b!.stdout) as RunResult;
    assert.deepEqual([ra.files_changed, rb.files_changed], [['one.txt'], ['two.txt']]);
    assert.notEqual(ra.branch, rb.branch);
    // they really overlapped in time
    assert.ok(ra.started_at < rb.finished_at && rb.started_at < ra.finished_at);
    assertCheckoutUnchanged(repo, before);
  });

  const noCgroup = trackingMechanism().mechanism !== 'cgroup' && 'supervisor cannot make cgroups here (needs root or a delegated cgroup v2 subtree)';
  it('a daemon that drops SUPERVISOR_RUN_ID and its session (env -i setsid) is still ended with the run, through its cgroup', requires(noCgroup), async () => {
    const repo = await makeRepo();
    const seconds = `98765${process.pid}`;
    const daemons = () => readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8') === `sleep\0${seconds}\0` && alive(Number(p));
      } catch {
        return false;
      }
    });
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--retries', '0'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced({ status: 'APPROVED', review_status: 'APPROVED', issues: [] })),
      // The CLI exits only once the daemon has left its session: else the end of the CLI's own
      // process group could catch setsid before it forked, and there would be no daemon to find.
      FAKE_CLI_SH: `env -i setsid sleep ${seconds} >/dev/null 2>&1 < /dev/null & for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do pgrep -fx 'sleep ${seconds}' >/dev/null 2>&1 && break; sleep 0.1; done`,
    });
    try {
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(daemons(), [], 'the daemon outlived the run');
      assert.ok(run.result.notices.some((n) => n.startsWith('ended processes the run left running')), run.result.notices.join('\n'));
    } finally {
      for (const pid of daemons()) process.kill(Number(pid), 'SIGKILL');
    }
  });

  it('a run whose CLI never starts ends the process that joined its cgroup ahead for it, and says nothing of it', requires(noCgroup), async () => {
    const repo = await makeRepo();
    const gitDir = dirname(which('git', process.env)!);
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--retries', '0'], { PATH: [gitDir, '/bin'].join(delimiter) });
    assert.equal(run.result.failure?.class, 'not_found', run.stderr);
    assert.deepEqual(run.result.notices.filter((n) => n.includes('processes')), [], 'the standby is no process of the run to report');
    const ours = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(run.result.run_id);
      } catch {
        return false;
      }
    });
    assert.deepEqual(ours, [], 'nothing started for the run is left');
  });

  for (const [how, place] of [['ahead', []], ['placed early (--base)', ['--base', 'HEAD']]] as const) {
    it(`a run that fails at its prompt once its worktree was made (${how}) leaves no worktree, process or cgroup of its own`, requires(noCgroup), async () => {
      // The template fails as it is rendered, after packing: the role was trusted, so the
      // worktree was made (and, ahead, the standby that joins the run's cgroup started) beside
      // packing (workspace-ahead.ts), or before it (run-place.ts).
      const role = `brokenrender${process.pid}`;
      const repo = await makeRepo({
        [`.supervisor/roles/${role}.yaml`]: `extends: reviewer\ntemplate: ${role}\n`,
        [`.supervisor/prompts/${role}.eta`]: '<%= it.nothing.here %>\n',
      });
      const where = (trackingMechanism() as { where: string }).where;
      const run = await runCli(['run', role, '--task', 'x', '--trust', '--json', ...place], { cwd: repo, env: fakeEnv() });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /TEMPLATE_UNDEFINED_VARIABLE/);
      const mine = (name: string) => name.includes(role);
      const left = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
        try {
          return mine(readFileSync(`/proc/${p}/cmdline`, 'utf8'));
        } catch {
          return false;
        }
      });
      assert.deepEqual(left, [], 'no process started for the run is left (its standby names its cgroup)');
      assert.deepEqual(readdirSync(where).filter(mine), [], 'no cgroup of the run is left');
      assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1, 'its worktree is removed');
    });
  }
});
