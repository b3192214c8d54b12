import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import claude from '../../../plugins/adapters/claude.ts';
import { capture, context, dryRun, processResult, request, SCHEMA } from './helpers.ts';

describe('claude adapter: command()', () => {
  it('runs claude -p --output-format json with the prompt on stdin', async () => {
    const spec = await claude.command(request({ prompt: 'Do the thing.' }), context());
    assert.deepEqual(spec, { args: ['-p', '--output-format', 'json'], stdin: 'Do the thing.' });
  });

  it('asks for stream-json with --verbose when streaming (stream-json without --verbose exits 1)', async () => {
    const spec = await claude.command(request({ stream: true }), context());
    assert.deepEqual(spec.args, ['-p', '--output-format', 'stream-json', '--verbose']);
  });

  it('maps model, schema, edits, turns, budget, then appends the role flags', async () => {
    const spec = await claude.command(
      request({ model: 'sonnet', outputSchema: SCHEMA, allowEdits: true, config: { max_turns: 7 }, maxBudgetUsd: 0.5, flags: ['--add-dir', '/x'] }),
      context(),
    );
    assert.deepEqual(spec.args, [
      '-p', '--output-format', 'json',
      '--model', 'sonnet',
      '--json-schema', JSON.stringify(SCHEMA.schema),
      '--permission-mode', 'acceptEdits',
      '--max-turns', '7',
      '--max-budget-usd', '0.5',
      '--add-dir', '/x',
    ]);
  });

  it('through the engine: gets the role\'s schema (--json-schema), the cost ceiling (--max-budget-usd) and its quiet env', async () => {
    const { command } = await dryRun('claude', ['--max-cost-usd', '2']);
    assert.equal(JSON.parse(command.args[command.args.indexOf('--json-schema') + 1] ?? 'null').title, 'ReviewOutput');
    assert.equal(command.args[command.args.indexOf('--max-budget-usd') + 1], '2');
    assert.deepEqual(command.env, { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1' });
  });
});

describe('claude adapter: where the seeds guessed wrong', () => {
  it('claude -p json is an envelope, not raw markdown', async () => {
    const stdout = await capture('claude', 'json', 'stdout');
    const got = await claude.extract(processResult({ stdout }), request(), context());
    assert.equal(got.text, 'Done.\n\n```json\n{"status":"SUCCESS","action_taken":"x"}\n```');
    assert.notEqual(got.text, stdout);
    const plain = await claude.extract(processResult({ stdout: await capture('claude', 'text', 'stdout') }), request(), context());
    assert.equal(plain.failure?.class, 'invalid_envelope');
  });

  it('claude API errors come as subtype success with is_error', async () => {
    const stdout = await capture('claude', 'json-http500-retries1', 'stdout');
    assert.match(stdout, /"subtype":"success","is_error":true/);
    const got = await claude.extract(processResult({ stdout, exitCode: 1 }), request(), context());
    assert.equal(got.text, null);
    assert.deepEqual([got.failure?.class, got.failure?.httpStatus], ['api_error', 500]);
  });

  it('an empty reply is exit 0 with result "": empty_output', async () => {
    const got = await claude.extract(processResult({ stdout: await capture('claude', 'json-empty', 'stdout') }), request(), context());
    assert.equal(got.failure?.class, 'empty_output');
  });
});

describe('claude adapter: extract()', () => {
  it('reads --output-format json --verbose, a JSON array whose last message is the result', async () => {
    const lines = (await capture('claude', 'stream-json', 'stdout')).trim().split('\n').map((l) => JSON.parse(l));
    const got = await claude.extract(processResult({ stdout: JSON.stringify(lines) }), request(), context());
    assert.equal(got.text, lines.at(-1).result);
    assert.equal(got.metrics.sessionId, 'efd1fd97-d8f1-4ccd-ae70-e17048647ec5');
  });

  it('error_max_budget_usd is max_budget, with tokens and cost from modelUsage when usage is zero', async () => {
    const envelope = {
      type: 'result', subtype: 'error_max_budget_usd', is_error: true, duration_ms: 900, num_turns: 3, session_id: 's-1', total_cost_usd: 0,
      usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      modelUsage: { 'claude-opus-4-8': { inputTokens: 5000, outputTokens: 300, cacheReadInputTokens: 1000, cacheCreationInputTokens: 0, costUSD: 0.0612 } },
      errors: ['Reached maximum budget ($0.05)'],
    };
    const got = await claude.extract(processResult({ stdout: JSON.stringify(envelope), exitCode: 1 }), request(), context());
    assert.equal(got.failure?.class, 'max_budget');
    assert.match(got.failure?.detail ?? '', /maximum budget/);
    assert.deepEqual(got.metrics, { inputTokens: 6000, outputTokens: 300, cachedTokens: 1000, costUsd: 0.0612, durationMs: 900, turns: 3, sessionId: 's-1', model: 'claude-opus-4-8' });
  });

  it('structured_output is handed over as structured, and the JSON text stays the text', async () => {
    const got = await claude.extract(processResult({ stdout: await capture('claude', 'json-schema', 'stdout') }), request({ outputSchema: SCHEMA }), context());
    assert.deepEqual(got.structured, { status: 'SUCCESS', action_taken: 'x' });
    assert.equal(got.failure, undefined);
  });

  it('a result object of the wrong shape is invalid_envelope, naming the field', async () => {
    const got = await claude.extract(processResult({ stdout: '{"type":"result","subtype":"success","num_turns":"two"}' }), request(), context());
    assert.equal(got.failure?.class, 'invalid_envelope');
    assert.match(got.failure?.detail ?? '', /num_turns/);
  });

  it('uses the measured duration when the envelope has none, and never invents a cost', async () => {
    const got = await claude.extract(processResult({ stdout: '{"type":"result","subtype":"success","is_error":false,"result":"hi"}', durationMs: 4321 }), request(), context());
    assert.deepEqual([got.text, got.metrics.durationMs, got.metrics.costUsd, got.metrics.inputTokens], ['hi', 4321, null, null]);
  });

  it('tells the user when claude refused tool calls (permission_denials)', async () => {
    const ctx = context();
    const stdout = JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'ok', permission_denials: [{ tool_name: 'Write' }] });
    await claude.extract(processResult({ stdout }), request(), ctx);
    assert.equal(ctx.notices.length, 1);
    assert.match(ctx.notices[0] ?? '', /refused 1 tool call/);
  });

  it('the core timeout and interrupt flags win when no result arrived', async () => {
    const stdout = await capture('claude', 'stream-json-hang', 'stdout');
    assert.equal((await claude.extract(processResult({ stdout, exitCode: null, signal: 'SIGTERM', timedOut: true }), request(), context())).failure?.class, 'timeout');
    assert.equal((await claude.extract(processResult({ stdout, exitCode: null, signal: 'SIGTERM', interrupted: true }), request(), context())).failure?.class, 'interrupted');
  });
});
