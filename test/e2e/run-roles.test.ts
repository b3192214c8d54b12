/**
 * `supervisor run` end to end, in-process, on real temporary git repositories, with the fake
 * CLIs (real envelopes) on PATH. After every run the user's checkout must be unchanged.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git, makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { cliCalls, eventKinds, fakeEnv, fenced, replies, runJson } from './_run.ts';

const IMPLEMENTED = { status: 'SUCCESS', action_taken: 'changed a to 2 and added b' };
const APPROVED = { status: 'APPROVED', review_status: 'APPROVED', issues: [] };
const PLAN = { status: 'COMPLETE', phases: [{ name: 'one', description: 'do it', files: ['src/a.ts'] }], estimated_components: 1 };

async function project() {
  const repo = await makeRepo({ 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
  return { repo, before: snapshotCheckout(repo) };
}

describe('supervisor run (end to end)', () => {
  it('an implementer edits files in its worktree: branch, git_range, files_changed; the checkout is untouched', async () => {
    const { repo, before } = await project();
    const log = join(await tempDir(), 'calls.jsonl');
    const run = await runJson(repo, ['implementer', '--task', '\n# Change a to 2\n\nIn src/a.ts.', '--target', 'src/a.ts'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced(IMPLEMENTED)),
      FAKE_CLI_EDITS: JSON.stringify({ 'src/a.ts': 'export const a = 2;\n', 'src/b.ts': 'export const b = 1;\n' }),
      FAKE_CLI_LOG: log,
    });
    assert.equal(run.code, 0, run.stderr);
    const r = run.result;
    assert.equal(r.status, 'pass');
    assert.equal(r.role, 'implementer');
    assert.equal(r.cli, 'claude');
    assert.equal(r.output?.status, 'SUCCESS');
    assert.deepEqual(r.files_changed, ['src/a.ts', 'src/b.ts']);
    assert.equal(r.branch, `supervisor/${r.run_id}`);
    assert.equal(r.git_range, `${git(repo, 'rev-parse', 'HEAD').trim()}..${git(repo, 'rev-parse', r.branch).trim()}`);
    assert.equal(git(repo, 'show', `${r.branch}:src/a.ts`), 'export const a = 2;\n');
    // The commit's subject is the task's first line of text, without markdown's heading marks.
    assert.equal(git(repo, 'log', '-1', '--format=%s', r.branch).trim(), 'supervisor implementer: Change a to 2');
    assert.equal(r.metrics.attempts, 1);
    assert.equal(r.metrics.cost_known, true);
    assert.ok(r.metrics.input_tokens! > 0);
    // the CLI ran inside the worktree, never in the checkout; the worktree is gone afterwards
    const [call] = cliCalls(log);
    assert.equal(call!.cwd, r.worktree.path);
    assert.ok(call!.args.includes('acceptEdits') || call!.args.some((a) => a.includes('Edit')), `edit permission: ${call!.args.join(' ')}`);
    assert.ok(!existsSync(r.worktree.path));
    assert.deepEqual(readdirSync(r.run_dir).sort(), ['attempt-1', 'attempt-1.stderr', 'attempt-1.stdout', 'events.jsonl', 'prompt.md', 'result.json']);
    assertCheckoutUnchanged(repo, before);
  });

  it('a reviewer approves (pass) or requests changes (gaps, exit 1, issues)', async () => {
    const { repo, before } = await project();
    const ok = await runJson(repo, ['reviewer', '--task', 'review the change'], { FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)) });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.result.status, 'pass');
    assert.deepEqual(ok.result.files_changed, []);
    assert.equal(ok.result.branch, null);
    const changes = { status: 'CHANGES_REQUESTED', review_status: 'CHANGES_REQUESTED', issues: [{ severity: 'major', description: 'a is never tested', file: 'src/a.ts', line: 1 }] };
    const gaps = await runJson(repo, ['reviewer', '--task', 'review the change'], { FAKE_CLI_REPLY_FILE: await replies(fenced(changes)) });
    assert.equal(gaps.code, 1);
    assert.equal(gaps.result.status, 'gaps');
    assert.equal(gaps.result.reported_status, 'CHANGES_REQUESTED');
    assert.deepEqual(gaps.result.issues, ['[major] a is never tested (src/a.ts:1)']);
    assert.equal(gaps.result.failure, null);
    assertCheckoutUnchanged(repo, before);
  });

  it('a planner plans (pass) and a plan that needs refinement is gaps', async () => {
    const { repo, before } = await project();
    const ok = await runJson(repo, ['planner', '--task', 'plan a feature'], { FAKE_CLI_REPLY_FILE: await replies(fenced(PLAN)) });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual((ok.result.output?.phases as unknown[]).length, 1);
    const refine = await runJson(repo, ['planner', '--task', 'plan a feature'], { FAKE_CLI_REPLY_FILE: await replies(fenced({ ...PLAN, status: 'NEEDS_REFINEMENT' })) });
    assert.equal(refine.code, 1);
    assert.equal(refine.result.status, 'gaps');
    assertCheckoutUnchanged(repo, before);
  });

  it('every built-in CLI adapter runs a role to a pass from its real captured output', async () => {
    const { repo, before } = await project();
    for (const cli of ['claude', 'codex', 'gemini', 'cline']) {
      const run = await runJson(repo, ['implementer', '--cli', cli, '--task', 'do x']);
      assert.equal(run.code, 0, `${cli}: ${run.stderr}\n${JSON.stringify(run.result.failure)}`);
      assert.equal(run.result.cli, cli);
      assert.equal(run.result.output?.action_taken, 'x');
      // claude reports its cost; codex reports tokens, priced by the price table; these gemini and cline captures name no model with a price: unknown, not 0
      assert.equal(run.result.metrics.cost_source, { claude: 'cli', codex: 'price-table', gemini: null, cline: null }[cli], cli);
      assert.equal(run.result.metrics.cost_known, cli === 'claude' || cli === 'codex', cli);
    }
    assertCheckoutUnchanged(repo, before);
  });

  it('retries an answer without a JSON block once with stricter instructions, then passes', async () => {
    const { repo, before } = await project();
    const stdinFile = join(await tempDir(), 'stdin.txt');
    const log = join(await tempDir(), 'calls.jsonl');
    const run = await runJson(repo, ['reviewer', '--task', 'review'], {
      FAKE_CLI_REPLY_FILE: await replies('Looks good to me! APPROVED', fenced(APPROVED)),
      FAKE_CLI_STDIN_FILE: stdinFile,
      FAKE_CLI_LOG: log,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.result.metrics.attempts, 2);
    const calls = cliCalls(log);
    assert.equal(calls.length, 2);
    const retryPrompt = calls[1]!.stdin || calls[1]!.args.join(' ');
    assert.match(retryPrompt, /previous answer could not be used/);
    assert.match(retryPrompt, /no_json/);
    assert.ok(eventKinds(run.result).includes('parse_failed'));
    assertCheckoutUnchanged(repo, before);
  });

  it("a v2 role (v2-headers parser) is retried with the parser's own format, not fenced JSON", async () => {
    const { repo, before } = await project();
    const log = join(await tempDir(), 'calls.jsonl');
    const v2 = 'role: spec-reviewer\ntask_id: t-1\nstatus: gaps\nconfidence: high\nissues: missing progress reporting; extra flag\n\nIssues found.\n';
    const run = await runJson(repo, ['spec-reviewer', '--task', 'review task t-1'], { FAKE_CLI_REPLY_FILE: await replies('I reviewed it, all fine.', v2), FAKE_CLI_LOG: log });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.result.status, 'gaps');
    assert.deepEqual(run.result.issues, ['missing progress reporting', 'extra flag']);
    const retry = cliCalls(log)[1]!;
    const prompt = retry.stdin || retry.args.join(' ');
    assert.match(prompt, /the very first line is\s+`role: spec-reviewer`/);
    assertCheckoutUnchanged(repo, before);
  });

  it('retries a failed gate with its output, then passes', async () => {
    const { repo, before } = await project();
    const log = join(await tempDir(), 'calls.jsonl');
    const gate = 'test "$SUPERVISOR_ATTEMPT" -ge 2 || { echo "2 tests failed: expected a to be 2"; exit 1; }';
    const run = await runJson(repo, ['implementer', '--task', 'x', '--gate', gate], {
      FAKE_CLI_REPLY_FILE: await replies(fenced(IMPLEMENTED)),
      FAKE_CLI_LOG: log,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.result.metrics.attempts, 2);
    const calls = cliCalls(log);
    assert.match(calls[1]!.stdin || calls[1]!.args.join(' '), /2 tests failed: expected a to be 2/);
    const kinds = eventKinds(run.result);
    assert.ok(kinds.indexOf('gate_failed') < kinds.indexOf('gate_passed'));
    assertCheckoutUnchanged(repo, before);
  });

  it('two runs at once in one repository get separate worktrees and branches', async () => {
    const { repo, before } = await project();
    const reply = await replies(fenced(IMPLEMENTED));
    const [a, b] = await Promise.all([
      runJson(repo, ['implementer', '--task', 'a'], { FAKE_CLI_REPLY_FILE: reply, FAKE_CLI_DELAY_MS: '150', FAKE_CLI_EDITS: JSON.stringify({ 'one.txt': '1' }) }),
      runJson(repo, ['implementer', '--task', 'b'], { FAKE_CLI_REPLY_FILE: reply, FAKE_CLI_DELAY_MS: '150', FAKE_CLI_EDITS: JSON.stringify({ 'two.txt': '2' }) }),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.notEqual(a.result.branch, b.result.branch);
    assert.deepEqual(a.result.files_changed, ['one.txt']);
    assert.deepEqual(b.result.files_changed, ['two.txt']);
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1);
    assertCheckoutUnchanged(repo, before);
  });

  it('runs in place outside a git repository, and says so', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'notes.md': 'x\n' });
    const run = await runJson(dir, ['reviewer', '--task', 'review', '--target', 'notes.md'], { FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)) });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.result.worktree.mode, 'in-place');
    assert.equal(run.result.files_changed, null);
    assert.match(run.stderr, /running in place \(not a git repository\)/);
  });

  it('prints a human summary without --json, and --dry-run starts nothing', async () => {
    const { repo, before } = await project();
    const human = await runCli(['run', 'reviewer', '--task', 'review'], { cwd: repo, env: fakeEnv({ FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)) }) });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^PASS {2}reviewer via claude/);
    assert.match(human.stdout, /answer status: APPROVED/);
    assert.doesNotMatch(human.stderr, /attempt 1/); // no progress when stderr is not a terminal
    let tty = '';
    const onTty = await runCli(['run', 'reviewer', '--task', 'review'], {
      cwd: repo,
      env: fakeEnv({ FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)) }),
      deps: { stderr: { write: (t: string) => (tty += t), isTTY: true } },
    });
    assert.equal(onTty.code, 0);
    assert.match(tty, /attempt 1: starting claude/);
    assert.match(tty, /answer APPROVED -> pass/);
    const log = join(await tempDir(), 'calls.jsonl');
    const dry = await runCli(['run', 'implementer', '--task', 'change a', '--target', 'src/a.ts', '--dry-run'], { cwd: repo, env: fakeEnv({ FAKE_CLI_LOG: log }) });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /# prompt \(\d+ tokens, schema implementation\)/);
    assert.match(dry.stdout, /export const a = 1;/); // the packed target
    assert.match(dry.stdout, /claude -p --output-format json/);
    assert.ok(!existsSync(log), 'the CLI must not run');
    assert.equal(readdirSync(join(repo, '.supervisor/runs')).length, 2); // only the two human runs above
    // targets are relative to the current folder
    const fromSub = await runCli(['run', 'implementer', '--task', 'x', '--target', 'a.ts', '--dry-run'], { cwd: join(repo, 'src'), env: fakeEnv() });
    assert.equal(fromSub.code, 0, fromSub.stderr);
    assert.match(fromSub.stdout, /export const a = 1;/);
    const dryJson = await runCli(['run', 'implementer', '--task', 'x', '--dry-run', '--json'], { cwd: repo, env: fakeEnv() });
    const parsed = JSON.parse(dryJson.stdout) as { dry_run: boolean; command: { bin: string } };
    assert.equal(parsed.dry_run, true);
    assert.equal(parsed.command.bin, 'claude');
    assertCheckoutUnchanged(repo, before);
  });

  it('runs list and runs show read the log back', async () => {
    const { repo } = await project();
    const run = await runJson(repo, ['reviewer', '--task', 'review'], { FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)) });
    const list = await runCli(['runs', 'list', '--json'], { cwd: repo });
    const runs = JSON.parse(list.stdout) as { run_id: string; status: string; role: string; cli: string; attempts: number; cost_usd: number }[];
    assert.deepEqual(runs.map((r) => [r.run_id, r.status, r.role, r.cli, r.attempts]), [[run.result.run_id, 'pass', 'reviewer', 'claude', 1]]);
    const table = await runCli(['runs', 'list'], { cwd: repo });
    assert.match(table.stdout, /RUN +STATUS +ROLE +CLI +ATTEMPTS +TOKENS +COST +DURATION/);
    assert.match(table.stdout, new RegExp(`${run.result.run_id} +pass +reviewer +claude +1`));
    const show = await runCli(['runs', 'show', 'last', '--json'], { cwd: repo });
    const shown = JSON.parse(show.stdout) as { result: { run_id: string }; events: { kind: string }[] };
    assert.equal(shown.result.run_id, run.result.run_id);
    assert.equal(shown.events.at(-1)?.kind, 'run_finished');
    const human = await runCli(['runs', 'show', run.result.run_id.slice(-6)], { cwd: repo });
    assert.match(human.stdout, /events:/);
    const missing = await runCli(['runs', 'show', 'nope', '--json'], { cwd: repo });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /RUN_NOT_FOUND/);
  });

  it('configuration errors exit 2 and start nothing', async () => {
    const { repo, before } = await project();
    const unknown = await runCli(['run', 'no-such-role', '--task', 'x'], { cwd: repo, env: fakeEnv() });
    assert.equal(unknown.code, 2);
    const badCli = await runCli(['run', 'reviewer', '--cli', 'nope', '--task', 'x'], { cwd: repo, env: fakeEnv() });
    assert.equal(badCli.code, 2);
    assert.match(badCli.stderr, /PLUGIN_NOT_FOUND/);
    const badTimeout = await runCli(['run', 'reviewer', '--timeout', '-1', '--task', 'x'], { cwd: repo, env: fakeEnv() });
    assert.equal(badTimeout.code, 2);
    const noTask = await runCli(['run', 'reviewer'], { cwd: repo, env: fakeEnv() });
    assert.equal(noTask.code, 2);
    assert.ok(!existsSync(join(repo, '.supervisor/runs')) || readdirSync(join(repo, '.supervisor/runs')).length === 0);
    assertCheckoutUnchanged(repo, before);
  });
});
