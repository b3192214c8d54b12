import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeEvent, renderResult } from '../../../core/runs/render.ts';
import type { RunResult } from '../../../core/run/result.ts';

const base: RunResult = {
  run_id: '20260101-000000-implementer-abcdef', role: 'implementer', base_role: null, cli: 'codex', status: 'error', exit_code: 4,
  output: null, reported_status: null, issues: ['nonzero_exit: codex exited with code 1: boom (stopped: no retries left (max_retries))'],
  failure: { class: 'nonzero_exit', detail: 'codex exited with code 1: boom' }, stop_reason: 'retries_exhausted',
  metrics: { input_tokens: 10, output_tokens: 2, cached_tokens: null, cost_usd: null, cost_known: false,
  cost_source: null, max_cost_usd: null, duration_ms: 1500, cli_duration_ms: 1000, attempts: 3, turns: null, model: null, session_id: null },
  git_range: null, branch: null, files_changed: [], worktree: { mode: 'worktree', path: '/r/.supervisor/worktrees/x', kept: false, reason: null },
  run_dir: '/r/.supervisor/runs/x', workflow_id: null, task_id: null, started_at: '', finished_at: '', notices: [],
};

describe('human output', () => {
  it('says the failure once, and that the cost is unknown rather than $0', () => {
    const text = renderResult(base, '/r');
    assert.match(text, /^ERROR {2}implementer via codex {2}\(3 attempts, 1\.5 s\)/);
    assert.equal(text.match(/boom/g)?.length, 1);
    assert.match(text, /stopped: no retries left/);
    assert.match(text, /cost: unknown \(codex reported none\)/);
    assert.match(text, /changes: none/);
    assert.match(text, /log: \.supervisor\/runs\/x/);
  });

  it("an interrupted run's cost says it was interrupted, not 'at least'", () => {
    const text = renderResult({ ...base, exit_code: 130, failure: { class: 'interrupted', detail: 'Ctrl-C' }, metrics: { ...base.metrics, cost_usd: 0.25, cost_known: false } }, '/r');
    assert.match(text, /cost: \$0\.2500 before the interruption/);
    assert.doesNotMatch(text, /≥/);
  });

  it('lists the files of a commit and a partial cost', () => {
    const text = renderResult({ ...base, status: 'pass', exit_code: 0, failure: null, issues: [], git_range: `${'a'.repeat(40)}..${'b'.repeat(40)}`, branch: 'supervisor/x', files_changed: ['src/a.ts'], metrics: { ...base.metrics, cost_usd: 0.5, cost_known: false } }, '/r');
    assert.match(text, /changes: 1 file\(s\) on supervisor\/x \(aaaaaaaaa\.\.bbbbbbbbb\)\n {2}src\/a\.ts/);
    assert.match(text, /cost: ≥\$0\.5000 \(some attempts reported no cost\)/);
  });

  it('turns events into progress lines', () => {
    assert.equal(describeEvent({ ts: '', kind: 'retry', mode: 'backoff', because: 'timeout', delay_ms: 2000 }), 'retrying (backoff) after timeout in 2.0 s');
    assert.equal(describeEvent({ ts: '', kind: 'notice', message: 'x' }), null);
    assert.equal(describeEvent({ ts: '', kind: 'prompt_built', tokens: 19000, truncated: ['src/big.ts'], left_out: ['a.ts', 'b.ts'] }), 'prompt: 19000 tokens; cut at the budget line: src/big.ts; 2 files left out');
  });

  it("a connection the sandbox refused during set-up is labelled set-up, not the CLI (issue 28 item 9)", () => {
    const at = { ts: '2026-01-01T00:00:00.000Z' };
    const refused = (data: Record<string, unknown>) => describeEvent({ ...at, kind: 'sandbox_refused', sandbox: 'bwrap', target: 'registry.npmjs.org:443', ...data } as never);
    assert.match(String(refused({ during: 'setup' })), /\(set-up\)$/);
    assert.match(String(refused({ purpose: 'setup' })), /\(set-up\)$/);
    assert.match(String(refused({ purpose: 'gate' })), /\(a gate\)$/);
    assert.match(String(refused({ purpose: 'cli' })), /\(the CLI\)$/);
  });
});
