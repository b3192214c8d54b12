import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { runRole } from '../../../core/run/run-role.ts';
import { readEvents } from '../../../core/runs/runs-store.ts';
import { worktreesDir } from '../../../core/state-dir.ts';
import { runProcess } from '../../../core/process/run-process.ts';
import { countingGit, git, makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../helpers/checkout.ts';
import { answer, asCall, editing, envelope, fakeRole, harness } from './_fakes.ts';

const kinds = (dir: string) => readEvents(dir).map((e) => e.kind);
const ok = (status = 'SUCCESS', extra: object = {}) => ({ stdout: envelope(answer({ status, ...extra })) });

describe('runRole', () => {
  it('passes: one attempt, a full run log, the worktree removed, nothing committed when nothing changed', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    const h = harness(repo, [ok()]);
    const result = await runRole(...asCall(h.options));
    assert.equal(result.status, 'pass');
    assert.equal(result.exit_code, 0);
    assert.equal(result.reported_status, 'SUCCESS');
    assert.deepEqual(result.output, { status: 'SUCCESS' });
    assert.equal(result.failure, null);
    assert.equal(result.metrics.attempts, 1);
    assert.equal(result.metrics.input_tokens, 100);
    assert.equal(result.metrics.cost_usd, 0.01);
    assert.equal(result.git_range, null);
    assert.deepEqual(result.files_changed, []);
    assert.equal(result.worktree.mode, 'worktree');
    assert.equal(result.worktree.kept, false);
    assert.ok(!existsSync(result.worktree.path));
    // the CLI ran in the worktree, got the prompt on stdin, and knew its run and attempt
    assert.equal(h.calls[0]!.cwd, result.worktree.path);
    assert.equal(h.calls[0]!.stdin, 'PROMPT: Do the thing\n');
    assert.equal(h.calls[0]!.env.SUPERVISOR_RUN_ID, result.run_id);
    assert.equal(h.calls[0]!.env.SUPERVISOR_ATTEMPT, '1');
    assert.equal(h.adapter.requests[0]!.allowEdits, true);
    const dir = result.run_dir;
    assert.deepEqual(kinds(dir), ['run_started', 'prompt_built', 'workspace_ready', 'attempt_started', 'cli_exited', 'parsed', 'workspace_removed', 'run_finished']);
    assert.equal(readFileSync(join(dir, 'prompt.md'), 'utf8'), 'PROMPT: Do the thing\n');
    assert.ok(readFileSync(join(dir, 'attempt-1.stdout'), 'utf8').includes('SUCCESS'));
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')), result);
    assertCheckoutUnchanged(repo, before);
  });

  it('commits the edits of an implementer on supervisor/<run-id> with git_range and files_changed', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const before = snapshotCheckout(repo);
    const h = harness(repo, [editing({ 'src/a.ts': 'export const a = 2;\n', 'src/b.ts': 'new\n' }, envelope(answer({ status: 'SUCCESS' })))]);
    const result = await runRole(...asCall(h.options));
    assert.equal(result.branch, `supervisor/${result.run_id}`);
    const [base, head] = result.git_range!.split('..');
    assert.equal(base, git(repo, 'rev-parse', 'HEAD').trim());
    assert.equal(head, git(repo, 'rev-parse', result.branch!).trim());
    assert.deepEqual(result.files_changed, ['src/a.ts', 'src/b.ts']);
    assert.equal(git(repo, 'show', `${result.branch}:src/b.ts`), 'new\n');
    assert.ok(kinds(result.run_dir).includes('committed'));
    assertCheckoutUnchanged(repo, before);
  });

  it("runs git with the run's environment, not supervisor's own", async () => {
    const repo = await makeRepo();
    const env = { PATH: process.env.PATH, GIT_AUTHOR_NAME: 'Run Env', GIT_AUTHOR_EMAIL: 'run@env.test' };
    const h = harness(repo, [editing({ 'x.txt': 'x\n' }, envelope(answer({ status: 'SUCCESS' })))], { run: { env } });
    const result = await runRole(...asCall(h.options));
    assert.equal(git(repo, 'log', '-1', '--format=%an <%ae>', result.branch!).trim(), 'Run Env <run@env.test>');
  });

  it("reads one driver guard, the checkout's, which its worktree shares: the check after the CLI waits for no git config", async () => {
    const repo = await makeRepo();
    const { env, calls } = await countingGit();
    const guardReads = async (where: string) => (await calls()).filter((call) => call.includes(where) && call.includes(' config --null --name-only --get-regexp ')).length;
    const result = await runRole(...asCall(harness(repo, [ok()], { run: { env } }).options));
    assert.equal(result.status, 'pass');
    assert.equal(await guardReads(''), 1, 'the checkout\'s config, read once');
    assert.equal(await guardReads('/worktrees/'), 0, 'the worktree reads the same files: none of its own');
  });

  it('keeps the worktree with keepWorktree', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [ok()], { run: { keepWorktree: true } });
    const result = await runRole(...asCall(h.options));
    assert.equal(result.worktree.kept, true);
    assert.ok(existsSync(result.worktree.path));
    git(repo, 'worktree', 'remove', '--force', result.worktree.path);
  });

  it('retries an answer without JSON once, with stricter instructions, then succeeds', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [{ stdout: envelope('I did it, trust me.') }, ok()]);
    const result = await runRole(...asCall(h.options));
    assert.equal(result.status, 'pass');
    assert.equal(result.metrics.attempts, 2);
    assert.equal(result.metrics.input_tokens, 200);
    assert.equal(result.metrics.cost_usd, 0.02);
    const retryPrompt = h.adapter.requests[1]!.prompt;
    assert.ok(retryPrompt.startsWith('PROMPT: Do the thing\n'));
    assert.match(retryPrompt, /previous answer could not be used/);
    assert.match(retryPrompt, /no_json/);
    assert.match(retryPrompt, /"required": \[\n\s+"status"\n\s+\]/); // the schema itself
    assert.equal(readFileSync(join(result.run_dir, 'attempt-2.prompt.md'), 'utf8'), retryPrompt);
    assert.deepEqual(h.sleeps, [0]);
    const events = kinds(result.run_dir);
    assert.ok(events.includes('parse_failed') && events.includes('retry'));
  });

  it('ends as error (exit 3) after the one stricter retry, whatever max_retries says', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [{ stdout: envelope('nope') }, { stdout: envelope('```json\n{"no_status": 1}\n```') }], { run: { retries: 5 } });
    const result = await runRole(...asCall(h.options));
    assert.equal(result.status, 'error');
    assert.equal(result.exit_code, 3);
    assert.equal(result.failure?.class, 'invalid_output');
    assert.equal(result.metrics.attempts, 2);
    assert.equal(result.output, null);
    assert.match(result.issues.at(-1)!, /stricter instructions was used/);
  });

  it('retries CLI failures with backoff until max_retries, then exit 4', async () => {
    const repo = await makeRepo();
    const fail = { exitCode: 1, stdout: envelope(null), stderr: 'upstream error' };
    const h = harness(repo, [fail, fail, fail]);
    const result = await runRole(...asCall(h.options));
    assert.equal(result.failure?.class, 'nonzero_exit');
    assert.match(result.failure!.detail, /exited with code 1: upstream error/);
    assert.equal(result.exit_code, 4);
    assert.equal(result.metrics.attempts, 3);
    assert.deepEqual(h.sleeps, [10, 20]);
  });

  it('opens the circuit breaker after consecutive CLI failures', async () => {
    const repo = await makeRepo();
    const timeout = { timedOut: true, exitCode: null, signal: 'SIGTERM', stdout: '' };
    const h = harness(repo, [timeout, timeout, timeout], { run: { retries: 10, breakerThreshold: 3 } });
    const result = await runRole(...asCall(h.options));
    assert.equal(result.failure?.class, 'timeout');
    assert.equal(result.metrics.attempts, 3);
    assert.match(result.issues.at(-1)!, /circuit breaker/);
    assert.equal(result.stop_reason, 'circuit_breaker');
    assert.equal(result.metrics.cost_known, false); // killed CLIs report nothing
  });

  it('does not retry a missing binary', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [{ notFound: true, exitCode: -2, spawnError: 'spawn fake-cli ENOENT' }]);
    const result = await runRole(...asCall(h.options));
    assert.equal(result.failure?.class, 'not_found');
    assert.equal(result.exit_code, 4);
    assert.equal(result.metrics.attempts, 1);
    assert.equal(result.metrics.cost_usd, 0);
    assert.deepEqual(h.sleeps, []);
  });

  it('retries a failed gate with its output as feedback, then passes', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [ok(), editing({ 'fixed.txt': 'ok\n' }, envelope(answer({ status: 'SUCCESS' })))], {
      role: { gates: ['test -f fixed.txt || { echo "fixed.txt is missing"; exit 1; }'] },
    });
    const result = await runRole(...asCall(h.options));
    assert.equal(result.status, 'pass');
    assert.equal(result.metrics.attempts, 2);
    assert.match(h.adapter.requests[1]!.prompt, /fixed\.txt is missing/);
    assert.deepEqual(result.files_changed, ['fixed.txt']);
    const events = kinds(result.run_dir);
    assert.ok(events.indexOf('gate_failed') < events.indexOf('gate_passed'));
  });

  it('ends as gaps when the gate keeps failing (extra --gate commands too)', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [ok(), ok()], { run: { gates: ['exit 7'], retries: 1 } });
    const result = await runRole(...asCall(h.options));
    assert.equal(result.status, 'gaps');
    assert.equal(result.exit_code, 1);
    assert.equal(result.failure?.class, 'gate_failed');
    assert.deepEqual(result.output, { status: 'SUCCESS' });
    assert.match(result.issues.join('\n'), /gate `exit 7` failed \(exit 7\)/);
  });

  it('maps the answer status: gaps and error are final answers, not retries', async () => {
    const repo = await makeRepo();
    const gaps = await runRole(...asCall(harness(repo, [ok('CHANGES_REQUESTED', { issues: ['fix the test'] })]).options));
    assert.equal(gaps.status, 'gaps');
    assert.equal(gaps.exit_code, 1);
    assert.deepEqual(gaps.issues, ['fix the test']);
    const blocked = await runRole(...asCall(harness(repo, [ok('BLOCKED')], { role: { gates: ['exit 1'] } }).options));
    assert.equal(blocked.status, 'error');
    assert.equal(blocked.failure, null);
    assert.equal(blocked.exit_code, 1);
    assert.equal(blocked.metrics.attempts, 1); // no gates on a non-pass answer
  });

  it('stops at the cost ceiling and hands the remaining budget to CLIs that accept one', async () => {
    const repo = await makeRepo();
    const costly = { exitCode: 1, stdout: envelope(null, { cost: 0.6 }) };
    const h = harness(repo, [costly, costly, costly], { run: { maxCostUsd: 1 }, adapter: { acceptsBudget: true } });
    const result = await runRole(...asCall(h.options));
    assert.equal(result.metrics.attempts, 2);
    assert.equal(result.metrics.cost_usd, 1.2);
    assert.equal(result.metrics.max_cost_usd, 1);
    assert.deepEqual(h.adapter.requests.map((r) => r.maxBudgetUsd), [1, 0.4]);
    assert.match(result.issues.at(-1)!, /cost ceiling reached/);
  });

  it('says when the CLI reports no cost instead of pretending it was free', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [{ stdout: envelope(answer({ status: 'SUCCESS' }), { cost: null }) }], { run: { maxCostUsd: 1 } });
    const result = await runRole(...asCall(h.options));
    assert.equal(result.metrics.cost_usd, null);
    assert.equal(result.metrics.cost_known, false);
    assert.match(result.notices.join('\n'), /reported no cost/);
    assert.equal(h.adapter.requests[0]!.maxBudgetUsd, undefined); // the adapter takes no budget
  });

  it('ends as interrupted (exit 130) when the CLI comes back interrupted: the worktree removed, nothing committed', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    const controller = new AbortController();
    const h = harness(
      repo,
      [
        editing({ 'partial.txt': 'x' }, ''),
      ],
      { run: { signal: controller.signal } },
    );
    const first = h.options.peers!.runProcess!;
    h.options.peers!.runProcess = async (o) => {
      if (o.bin === '/bin/sh') return first(o);
      await first(o);
      controller.abort();
      return { stdout: '', stderr: '', exitCode: null, signal: 'SIGTERM', durationMs: 1, timedOut: false, interrupted: true, truncated: { stdout: false, stderr: false }, notFound: false };
    };
    const result = await runRole(...asCall(h.options));
    assert.equal(result.exit_code, 130);
    assert.equal(result.failure?.class, 'interrupted');
    assert.equal(result.metrics.attempts, 1);
    assert.equal(result.branch, null);
    assert.ok(!existsSync(result.worktree.path));
    assert.ok(kinds(result.run_dir).includes('interrupted'));
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*'), '');
    assertCheckoutUnchanged(repo, before);
  });

  it('runs in place outside git, and with worktree: false', async () => {
    const plain = await tempDir();
    const result = await runRole(...asCall(harness(plain, [editing({ 'out.txt': 'x' }, envelope(answer({ status: 'SUCCESS' })))]).options));
    assert.equal(result.worktree.mode, 'in-place');
    assert.equal(result.worktree.reason, 'not a git repository');
    assert.equal(result.files_changed, null);
    assert.ok(existsSync(join(plain, 'out.txt')));
    assert.match(result.notices.join('\n'), /running in place/);
    const repo = await makeRepo();
    const inPlace = await runRole(...asCall(harness(repo, [ok()], { run: { worktree: false } }).options));
    assert.equal(inPlace.worktree.path, repo);
  });

  it('says when the checkout holds work the worktree starts without, as its record shows, with one git status fewer', async () => {
    const uncommitted = /your checkout has uncommitted changes; the worktree starts from HEAD/;
    const repo = await makeRepo({ 'a.txt': 'one\n' });
    await writeFiles(repo, { '.supervisor/roles/mine.yaml': 'name: mine\n' });
    const { env, calls } = await countingGit();
    const clean = await runRole(...asCall(harness(repo, [ok()], { run: { env } }).options));
    assert.doesNotMatch(clean.notices.join('\n'), uncommitted, 'supervisor\'s own untracked files are not the user\'s work');
    assert.equal((await calls()).filter((call) => / status /.test(` ${call} `)).length, 3, 'the record before and after, the worktree\'s check');
    await writeFiles(repo, { 'a.txt': 'two\n' });
    const dirty = await runRole(...asCall(harness(repo, [ok()]).options));
    assert.match(dirty.notices.join('\n'), uncommitted);
    git(repo, 'add', 'a.txt');
    assert.match((await runRole(...asCall(harness(repo, [ok()]).options))).notices.join('\n'), uncommitted, 'staged only');
  });

  it("hands the adapter the worktree's git folders as recorded when it was made (none in place)", async () => {
    const repo = await makeRepo();
    const h = harness(repo, [ok()], { run: { keepWorktree: true } });
    const result = await runRole(...asCall(h.options));
    const common = realpathSync(join(repo, '.git'));
    assert.deepEqual(h.adapter.requests[0]!.git, { admin: join(common, 'worktrees', basename(result.worktree.path)), common });
    const inPlace = harness(repo, [ok()], { run: { worktree: false } });
    await runRole(...asCall(inPlace.options));
    assert.equal(inPlace.adapter.requests[0]!.git, undefined);
  });

  it('treats an adapter that cannot read the envelope as an unusable answer', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [{ stdout: 'not json at all' }, ok()]);
    const result = await runRole(...asCall(h.options));
    assert.equal(result.status, 'pass');
    assert.match(h.adapter.requests[1]!.prompt, /invalid_envelope/);
  });

  it('writes the output schema for CLIs that take it natively, and passes the role settings', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [ok()], {
      adapter: { acceptsOutputSchema: true },
      role: { name: 'reviewer', flags: ['--x'], extensions: { 'x-model': 'm1' }, config: { timeout: 42, max_turns: 3 } },
    });
    await runRole(...asCall(h.options));
    const request = h.adapter.requests[0]!;
    assert.ok(request.outputSchema);
    assert.deepEqual(JSON.parse(readFileSync(request.outputSchema.file, 'utf8')), request.outputSchema.schema);
    assert.ok(request.scratchDir.endsWith('attempt-1'));
    assert.deepEqual([request.flags, request.model, request.allowEdits, request.config.max_turns], [['--x'], 'm1', false, 3]);
    assert.equal(h.calls[0]!.timeoutMs, 42_000);
  });

  it('cleans up and records the end when a plugin throws', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    const h = harness(repo, [], { adapter: { command: () => { throw new Error('adapter bug'); } } });
    await assert.rejects(runRole(...asCall(h.options)), { code: 'PLUGIN_HOOK' });
    const runs = readdirSync(join(repo, '.supervisor/runs'));
    const events = readEvents(join(repo, '.supervisor/runs', runs[0]!));
    assert.equal(events.at(-1)?.kind, 'run_finished');
    assert.deepEqual(readdirSync(worktreesDir(repo)), []);
    assertCheckoutUnchanged(repo, before);
  });

  it('commits what earlier attempts left in the worktree when a plugin throws on a later one', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    let calls = 0;
    const h = harness(repo, [editing({ 'draft.txt': 'first attempt\n' }, envelope('no JSON here'))], {
      adapter: {
        command: (request) => {
          if (++calls > 1) throw new Error('adapter bug');
          return { args: [], stdin: request.prompt };
        },
      },
    });
    await assert.rejects(runRole(...asCall(h.options)), { code: 'PLUGIN_HOOK' });
    const [id] = readdirSync(join(repo, '.supervisor/runs'));
    assert.equal(git(repo, 'show', `supervisor/${id}:draft.txt`), 'first attempt\n');
    const events = kinds(join(repo, '.supervisor/runs', id!));
    assert.deepEqual(events.slice(-3), ['committed', 'workspace_removed', 'run_finished']);
    assert.deepEqual(readdirSync(worktreesDir(repo)), []);
    assertCheckoutUnchanged(repo, before);
  });

  it('ends with a clear CLI failure when the system refuses to start the CLI (argument list too long)', async () => {
    const repo = await makeRepo();
    const h = harness(repo, [], { adapter: { bin: '/bin/sh', command: () => ({ args: ['-c', 'true', 'x'.repeat(300_000)] }) }, run: { retries: 0 } });
    h.options.peers!.runProcess = runProcess;
    const result = await runRole(...asCall(h.options));
    assert.equal(result.status, 'error');
    assert.equal(result.exit_code, 4);
    assert.equal(result.failure?.class, 'nonzero_exit');
    assert.match(result.failure!.detail, /\/bin\/sh could not be started: spawn E2BIG/);
    assert.equal(result.metrics.cost_usd, 0); // nothing ran, nothing cost
    assert.equal(kinds(result.run_dir).at(-1), 'run_finished');
  });

  it('two runs at once in one repository do not meet', async () => {
    const repo = await makeRepo();
    const before = snapshotCheckout(repo);
    const [a, b] = await Promise.all([
      runRole(...asCall(harness(repo, [editing({ 'a.txt': 'a' }, envelope(answer({ status: 'SUCCESS' })))]).options)),
      runRole(...asCall(harness(repo, [editing({ 'b.txt': 'b' }, envelope(answer({ status: 'SUCCESS' })))]).options)),
    ]);
    assert.notEqual(a.run_id, b.run_id);
    assert.deepEqual(a.files_changed, ['a.txt']);
    assert.deepEqual(b.files_changed, ['b.txt']);
    assertCheckoutUnchanged(repo, before);
  });
});

describe('runRole: the worktree cannot be made', () => {
  it('fails with WORKTREE_FAILED (exit 2), records it, and removes nothing that was there', async () => {
    const repo = await makeRepo();
    const h = harness(repo, []);
    const fixed = '20260101-000000-implementer-abcdef';
    h.options.peers!.now = () => new Date('2026-01-01T00:00:00Z');
    h.options.peers!.randomHex = () => 'abcdef';
    const { writeFiles } = await import('../../helpers/git-repo.ts');
    await writeFiles(worktreesDir(repo), { [`${fixed}/precious.txt`]: 'mine' });
    await assert.rejects(runRole(...asCall(h.options)), { code: 'WORKTREE_FAILED', exitCode: 2 });
    assert.ok(existsSync(join(worktreesDir(repo), `${fixed}/precious.txt`)));
    assert.equal(readEvents(join(repo, '.supervisor/runs', fixed)).at(-1)?.kind, 'run_finished');
  });
});

describe('edit permission', () => {
  it('comes from config.allow_edits, not from the role name', async () => {
    const { roleEditsFiles } = await import('../../../core/run/prepare.ts');
    assert.equal(roleEditsFiles(fakeRole({ name: 'implementer', config: {} })), false);
    assert.equal(roleEditsFiles(fakeRole({ name: 'anything', config: { allow_edits: true } })), true);
  });
});
