/**
 * Every failure class of `supervisor run`, end to end through the real adapters and the fake
 * CLIs: the class and detail in the result, the exit code, what is retried, and an
 * untouched checkout after each.
 */
import assert from 'node:assert/strict';
import { delimiter, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { which } from '../../core/process/which.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { cliCalls, fenced, OWN_CAPTURES, replies, runJson } from './_run.ts';

const APPROVED = { status: 'APPROVED', review_status: 'APPROVED' };

async function project() {
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  return { repo, before: snapshotCheckout(repo) };
}

describe('supervisor run: failure classes (end to end)', () => {
  it('not_found: a missing CLI binary is not retried, exit 4', async () => {
    const { repo, before } = await project();
    const gitBin = which('git', process.env);
    assert.ok(gitBin, 'git is on PATH');
    const gitDir = dirname(gitBin);
    const run = await runJson(repo, ['reviewer', '--task', 'x'], { PATH: [gitDir, '/bin'].join(delimiter) });
    assert.equal(run.code, 4);
    assert.equal(run.result.failure?.class, 'not_found');
    assert.match(run.result.failure!.detail, /claude could not be started/);
    assert.equal(run.result.metrics.attempts, 1);
    assert.equal(run.result.status, 'error');
    assertCheckoutUnchanged(repo, before);
  });

  it('empty_output: retried once with stricter instructions, then error, exit 3', async () => {
    const { repo, before } = await project();
    const run = await runJson(repo, ['reviewer', '--task', 'x'], { FAKE_CLI_CASE: 'json-empty' });
    assert.equal(run.code, 3);
    assert.equal(run.result.failure?.class, 'empty_output');
    assert.equal(run.result.metrics.attempts, 2);
    assert.equal(run.result.metrics.cost_usd! > 0, true); // empty answers still cost money, and it is counted
    assertCheckoutUnchanged(repo, before);
  });

  it('no_json: prose without a fenced block, twice: error, exit 3', async () => {
    const { repo, before } = await project();
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--retries', '5'], { FAKE_CLI_REPLY_FILE: await replies('REVIEW_STATUS: APPROVED\n\nLooks good!') });
    assert.equal(run.code, 3);
    assert.equal(run.result.failure?.class, 'no_json');
    assert.equal(run.result.metrics.attempts, 2);
    assert.equal(run.result.output, null);
    assertCheckoutUnchanged(repo, before);
  });

  it('invalid_output: JSON that breaks the schema names the field', async () => {
    const { repo, before } = await project();
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--retries', '0'], { FAKE_CLI_REPLY_FILE: await replies(fenced({ status: 'LGTM' })) });
    assert.equal(run.code, 3);
    assert.equal(run.result.failure?.class, 'invalid_output');
    assert.match(run.result.failure!.detail, /status|review_status/);
    assert.equal(run.result.metrics.attempts, 1);
    assertCheckoutUnchanged(repo, before);
  });

  it('invalid_envelope: output that is not the CLI envelope, exit 3', async () => {
    const { repo, before } = await project();
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--retries', '0'], { FAKE_CLI_FIXTURES: OWN_CAPTURES, FAKE_CLI_CASE: 'garbage' });
    assert.equal(run.code, 3);
    assert.equal(run.result.failure?.class, 'invalid_envelope');
    assertCheckoutUnchanged(repo, before);
  });

  it('nonzero_exit: a crashing CLI is retried with backoff, then exit 4', async () => {
    const { repo, before } = await project();
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--retries', '1'], { FAKE_CLI_FIXTURES: OWN_CAPTURES, FAKE_CLI_CASE: 'crash' });
    assert.equal(run.code, 4);
    assert.equal(run.result.failure?.class, 'nonzero_exit');
    assert.match(run.result.failure!.detail, /crashed \(simulated\)/);
    assert.equal(run.result.metrics.attempts, 2);
    assertCheckoutUnchanged(repo, before);
  });

  it('api_error: an auth error is not retried; a server error is, for every CLI', async () => {
    const { repo, before } = await project();
    const auth = await runJson(repo, ['reviewer', '--task', 'x'], { FAKE_CLI_CASE: 'json-http401-retries0' });
    assert.equal(auth.code, 4);
    assert.deepEqual([auth.result.failure?.class, auth.result.failure?.http_status, auth.result.metrics.attempts], ['api_error', 401, 1]);
    // cline names no status, only its errorClass "auth" (recoverable: false): still run once.
    const clineAuth = await runJson(repo, ['reviewer', '--cli', 'cline', '--task', 'x', '--retries', '2'], { FAKE_CLI_CASE: 'json-http401' });
    assert.equal(clineAuth.code, 4, JSON.stringify(clineAuth.result.failure));
    assert.deepEqual([clineAuth.result.failure?.class, clineAuth.result.metrics.attempts], ['api_error', 1]);
    const cases: [string, string][] = [['claude', 'json-http500-retries1'], ['codex', 'exec-json-failed'], ['gemini', 'json-http500-maxattempts1'], ['cline', 'json-http500']];
    for (const [cli, name] of cases) {
      const run = await runJson(repo, ['reviewer', '--cli', cli, '--task', 'x', '--retries', '1'], { FAKE_CLI_CASE: name });
      assert.equal(run.code, 4, `${cli}: ${JSON.stringify(run.result.failure)}`);
      assert.equal(run.result.failure?.class, 'api_error', cli);
      assert.equal(run.result.metrics.attempts, 2, cli);
    }
    assertCheckoutUnchanged(repo, before);
  });

  it('max_turns: a CLI that ran out of turns is not retried, exit 4 (claude and gemini)', async () => {
    const { repo, before } = await project();
    for (const [cli, name] of [['claude', 'json-tool-max-turns1'], ['gemini', 'json-tool-maxturns1']] as const) {
      const run = await runJson(repo, ['reviewer', '--cli', cli, '--task', 'x'], { FAKE_CLI_CASE: name });
      assert.equal(run.code, 4, `${cli}: ${JSON.stringify(run.result.failure)}`);
      assert.equal(run.result.failure?.class, 'max_turns', cli);
      assert.equal(run.result.metrics.attempts, 1, cli);
    }
    assertCheckoutUnchanged(repo, before);
  });

  it('empty output from codex (exit 0, no agent message) is an unusable answer, not a pass', async () => {
    const { repo, before } = await project();
    const run = await runJson(repo, ['reviewer', '--cli', 'codex', '--task', 'x'], { FAKE_CLI_CASE: 'exec-json-empty' });
    assert.equal(run.code, 3);
    assert.equal(run.result.failure?.class, 'empty_output');
    // its tokens were reported: priced by the price table
    assert.equal(run.result.metrics.cost_source, 'price-table');
    assertCheckoutUnchanged(repo, before);
  });

  it('gate_failed: a gate that keeps failing ends as gaps (exit 1) with the answer kept', async () => {
    const { repo, before } = await project();
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--retries', '1', '--gate', 'echo "lint: 3 problems"; exit 2'], {
      FAKE_CLI_REPLY_FILE: await replies(fenced(APPROVED)),
    });
    assert.equal(run.code, 1);
    assert.equal(run.result.status, 'gaps');
    assert.equal(run.result.failure?.class, 'gate_failed');
    assert.equal(run.result.output?.status, 'APPROVED');
    assert.equal(run.result.metrics.attempts, 2);
    assertCheckoutUnchanged(repo, before);
  });

  it('max_budget: the cost ceiling reaches the CLI, and its budget stop is not retried', async () => {
    const { repo, before } = await project();
    const log = join(await tempDir(), 'calls.jsonl');
    // The fake answers with claude's real error_max_budget_usd envelope (test/e2e/fixtures/cli/claude/budget.*).
    const run = await runJson(repo, ['reviewer', '--task', 'x', '--max-cost-usd', '0.5', '--retries', '3'], {
      FAKE_CLI_FIXTURES: OWN_CAPTURES,
      FAKE_CLI_CASE: 'budget',
      FAKE_CLI_LOG: log,
    });
    assert.equal(run.code, 4, run.stderr);
    assert.equal(run.result.failure?.class, 'max_budget');
    assert.match(run.result.failure!.detail, /Reached maximum budget/);
    assert.equal(run.result.stop_reason, 'not_retryable');
    assert.equal(run.result.metrics.attempts, 1);
    assert.equal(run.result.metrics.max_cost_usd, 0.5);
    const calls = cliCalls(log);
    assert.equal(calls.length, 1);
    const args = calls[0]!.args;
    assert.equal(args[args.indexOf('--max-budget-usd') + 1], '0.5');
    assertCheckoutUnchanged(repo, before);
  });
});
