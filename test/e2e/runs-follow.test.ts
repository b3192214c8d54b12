/**
 * Issue 14 item 7: runs you can follow and clean up — order by start time, ambiguous ids,
 * live output and `runs tail -f`, running and cut-short runs, notice text, list filters,
 * `run --gate-timeout` and `--tokenizer`.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeRepo } from '../helpers/git-repo.ts';
import { until } from '../helpers/processes.ts';
import { runCli } from '../helpers/run-cli.ts';
import { fakeEnv, fenced, replies, runJson } from './_run.ts';
import { writeRun } from './_runs-fixture.ts';

describe('runs you can follow', () => {
  it('runs show last picks the run that started last, not the largest random suffix; a prefix that fits several lists them', async () => {
    const repo = await makeRepo();
    writeRun(repo, '20260101-120000-reviewer-ffffff', { started: '2026-01-01T12:00:00.100Z', status: 'pass' });
    writeRun(repo, '20260101-120000-reviewer-000000', { started: '2026-01-01T12:00:00.900Z', status: 'gaps' });
    const show = await runCli(['runs', 'show', 'last', '--json'], { cwd: repo });
    assert.equal(show.code, 0, show.stderr);
    assert.equal(JSON.parse(show.stdout).run_id, '20260101-120000-reviewer-000000');
    const list = await runCli(['runs', 'list', '--json'], { cwd: repo });
    assert.deepEqual((JSON.parse(list.stdout) as { run_id: string }[]).map((r) => r.run_id), ['20260101-120000-reviewer-000000', '20260101-120000-reviewer-ffffff']);
    const ambiguous = await runCli(['runs', 'show', '20260101'], { cwd: repo });
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.stderr, /"20260101" matches 2 runs: 20260101-120000-reviewer-000000, 20260101-120000-reviewer-ffffff/);
  });

  it('a running run and a cut-short one show as such, with no made-up duration; notices and the workspace show their text', async () => {
    const repo = await makeRepo();
    const events = [
      { ts: '2026-01-02T00:00:01.000Z', kind: 'notice', message: 'your checkout has uncommitted changes' },
      { ts: '2026-01-02T00:00:02.000Z', kind: 'workspace_ready', mode: 'worktree', path: '/tmp/wt-x', base: 'abc', reason: null },
      { ts: '2026-01-02T00:05:00.000Z', kind: 'attempt_started', attempt: 1, bin: 'claude' },
    ];
    writeRun(repo, '20260102-000000-reviewer-aaaaaa', { started: '2026-01-02T00:00:00.000Z', pid: process.pid, events });
    writeRun(repo, '20260101-000000-planner-bbbbbb', { started: '2026-01-01T00:00:00.000Z', role: 'planner', events });
    const list = await runCli(['runs', 'list', '--json'], { cwd: repo });
    const runs = JSON.parse(list.stdout) as { state: string; duration_ms: number | null }[];
    assert.deepEqual(runs.map((r) => [r.state, r.duration_ms]), [['running', null], ['incomplete', null]]);
    const table = await runCli(['runs', 'list'], { cwd: repo });
    assert.match(table.stdout, /aaaaaa\s+running\s+reviewer\s+claude\s+1\s+-\s+-\s+running/);
    assert.match(table.stdout, /bbbbbb\s+incomplete\s+planner\s+claude\s+1\s+-\s+-\s+incomplete/);
    const show = await runCli(['runs', 'show', 'aaaaaa'], { cwd: repo });
    assert.match(show.stdout, /^RUNNING {2}reviewer via claude {2}\(1 attempt\(s\) so far; still running/);
    assert.match(show.stdout, /notice: your checkout has uncommitted changes/);
    assert.match(show.stdout, /workspace: worktree \/tmp\/wt-x/);
    const cut = await runCli(['runs', 'show', 'bbbbbb'], { cwd: repo });
    assert.match(cut.stdout, /^INCOMPLETE {2}planner via claude .*cut short/);
  });

  it('runs list filters by --role, --status and --since', async () => {
    const repo = await makeRepo();
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const recent = new Date(Date.now() - 60_000).toISOString();
    writeRun(repo, '20200101-000000-planner-aaaaaa', { started: old, role: 'planner', status: 'pass' });
    writeRun(repo, '20200101-000001-reviewer-bbbbbb', { started: recent, role: 'reviewer', status: 'gaps' });
    writeRun(repo, '20200101-000002-reviewer-cccccc', { started: recent, role: 'reviewer', status: 'pass' });
    const ids = async (...argv: string[]) => {
      const out = await runCli(['runs', 'list', '--json', ...argv], { cwd: repo });
      assert.equal(out.code, 0, out.stderr);
      return (JSON.parse(out.stdout) as { run_id: string }[]).map((r) => r.run_id.slice(-6));
    };
    assert.deepEqual(await ids('--role', 'reviewer'), ['cccccc', 'bbbbbb']);
    assert.deepEqual(await ids('--status', 'pass'), ['cccccc', 'aaaaaa']);
    assert.deepEqual(await ids('--since', '1d'), ['cccccc', 'bbbbbb']);
    assert.deepEqual(await ids('--role', 'reviewer', '--status', 'gaps'), ['bbbbbb']);
    assert.deepEqual(await ids('--since', '2099-01-01'), []);
    const bad = await runCli(['runs', 'list', '--since', 'yesterday'], { cwd: repo });
    assert.equal(bad.code, 2);
  });

  it("writes the CLI's output to the run folder as it arrives, and runs tail -f follows the run to its end", async () => {
    const repo = await makeRepo();
    const reply = await replies(fenced({ status: 'APPROVED', review_status: 'APPROVED', issues: [], next_step: 'LIVE-MARKER' }));
    let interrupt: (signal: 'SIGINT' | 'SIGHUP' | 'SIGTERM') => void = () => {};
    const running = runCli(['run', 'reviewer', '--task', 'x', '--retries', '0', '--json'], {
      cwd: repo,
      env: fakeEnv({ FAKE_CLI_REPLY_FILE: reply, FAKE_CLI_HANG: '1' }),
      deps: { onInterrupt: (handler) => ((interrupt = handler), () => {}) },
    });
    const runsDir = join(repo, '.supervisor/runs');
    let stdoutFile = '';
    await until(() => {
      const [id] = existsSync(runsDir) ? readdirSync(runsDir) : [];
      stdoutFile = id ? join(runsDir, id, 'attempt-1.stdout') : '';
      return stdoutFile !== '' && existsSync(stdoutFile) && readFileSync(stdoutFile, 'utf8').includes('LIVE-MARKER');
    }, 20_000, 'the CLI output to reach the run folder');
    // The CLI hangs after printing: the run is not over, yet its output is on disk.
    assert.equal(existsSync(join(stdoutFile, '..', 'result.json')), false);
    const tail = runCli(['runs', 'tail', 'last', '-f'], { cwd: repo });
    interrupt('SIGINT');
    const [run, followed] = await Promise.all([running, tail]);
    assert.equal(run.code, 130, run.stderr);
    assert.equal(followed.code, 0, followed.stderr);
    assert.match(followed.stdout, /attempt 1: starting claude/);
    assert.match(followed.stdout, /\[1 out\] .*LIVE-MARKER/);
    assert.match(followed.stdout, /finished: error \(exit 130\)\n$/);
  });

  it('run takes --gate-timeout and --tokenizer', async () => {
    const repo = await makeRepo();
    const reply = await replies(fenced({ status: 'APPROVED', review_status: 'APPROVED', issues: [] }));
    const slow = await runJson(repo, ['reviewer', '--task', 'x', '--retries', '0', '--gate', 'sleep 30', '--gate-timeout', '1'], { FAKE_CLI_REPLY_FILE: reply });
    assert.equal(slow.result.failure?.class, 'gate_failed');
    assert.match(slow.result.failure!.detail, /timed out/);
    const tokens = async (...flags: string[]) => {
      const run = await runJson(repo, ['reviewer', '--task', 'Review the naming of things', '--retries', '0', ...flags], { FAKE_CLI_REPLY_FILE: reply });
      assert.equal(run.code, 0, run.stderr);
      const events = readFileSync(join(run.result.run_dir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      return events.find((e) => e.kind === 'prompt_built').tokens as number;
    };
    const prompt = await runCli(['prompt', 'reviewer', '--task', 'Review the naming of things', '--tokenizer', 'o200k', '--stats'], { cwd: repo });
    const exact = Number(/prompt: ~(\d+) tokens \(o200k\)/.exec(prompt.stderr)?.[1]);
    assert.equal(await tokens('--tokenizer', 'o200k'), exact);
    assert.notEqual(await tokens(), exact);
  });
});
