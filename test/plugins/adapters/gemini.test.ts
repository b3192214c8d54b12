import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import gemini from '../../../plugins/adapters/gemini.ts';
import { capture, context, dryRun, processResult, request } from './helpers.ts';

describe('gemini adapter: command()', () => {
  it('runs gemini -p <prompt> -o json, stdin closed', async () => {
    const spec = await gemini.command(request({ prompt: 'Review this.' }), context());
    assert.deepEqual(spec, { args: ['-p', 'Review this.', '-o', 'json'] });
  });

  it('streams with -o stream-json; maps -m, edits, then the role flags', async () => {
    const spec = await gemini.command(request({ prompt: 'p q', stream: true, model: 'gemini-2.5-flash', allowEdits: true, flags: ['--include-directories', 'docs'] }), context());
    assert.deepEqual(spec.args, ['-p', 'p q', '-o', 'stream-json', '-m', 'gemini-2.5-flash', '--approval-mode', 'auto_edit', '--include-directories', 'docs']);
  });

  it('a prompt too long for one argument, or starting with "-", goes on stdin without -p', async () => {
    const long = `${'word '.repeat(30_000)}end`;
    assert.deepEqual(await gemini.command(request({ prompt: long }), context()), { args: ['-o', 'json'], stdin: long });
    assert.deepEqual(await gemini.command(request({ prompt: '--- front matter' }), context()), { args: ['-o', 'json'], stdin: '--- front matter' });
  });

  it('through the engine: its quiet env, and no cost ceiling or schema flag (gemini takes neither)', async () => {
    const { command } = await dryRun('gemini', ['--max-cost-usd', '2']);
    assert.deepEqual(command.env, { GEMINI_TELEMETRY_ENABLED: 'false', GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    assert.deepEqual(command.args.slice(2), ['-o', 'json']);
  });
});

describe('gemini adapter: where the seeds guessed wrong', () => {
  it("gemini's text is `response`, not `output`", async () => {
    const stdout = await capture('gemini', 'json', 'stdout');
    const envelope = JSON.parse(stdout);
    assert.equal(envelope.output, undefined);
    const got = await gemini.extract(processResult({ stdout }), request(), context());
    assert.equal(got.text, envelope.response);
  });

  it('gemini fatal errors are a JSON block on stderr among noise, not on stdout', async () => {
    const stderr = await capture('gemini', 'json-http500-maxattempts1', 'stderr');
    const got = await gemini.extract(processResult({ stdout: '', stderr, exitCode: 244 }), request(), context());
    assert.deepEqual([got.failure?.class, got.failure?.httpStatus, got.metrics.sessionId], ['api_error', 500, '24467c3a-e586-447c-8930-66318a866aaf']);
  });
});

describe('gemini adapter: extract()', () => {
  it('sums tokens over every model (router + main) and has no cost', async () => {
    const got = await gemini.extract(processResult({ stdout: await capture('gemini', 'json', 'stdout') }), request(), context());
    assert.deepEqual([got.metrics.inputTokens, got.metrics.outputTokens, got.metrics.cachedTokens, got.metrics.costUsd, got.metrics.model], [1334, 66, 200, null, 'gemini-3.8-flash']);
  });

  it('an exit code is an HTTP status modulo 256 when no error JSON is left (401 → 145)', async () => {
    const got = await gemini.extract(processResult({ stderr: 'boom', exitCode: 145 }), request(), context());
    assert.deepEqual([got.failure?.class, got.failure?.httpStatus], ['api_error', 401]);
  });

  it('exit 41 is an auth problem, 42 no input, 53 the turn limit', async () => {
    const classes = [];
    for (const exitCode of [41, 42, 53]) classes.push((await gemini.extract(processResult({ stderr: 'x', exitCode }), request(), context())).failure?.class);
    assert.deepEqual(classes, ['api_error', 'nonzero_exit', 'max_turns']);
  });

  it('INVALID_STREAM (an empty reply, exit 0) is empty_output', async () => {
    const stdout = JSON.stringify({ session_id: 's', error: { type: 'INVALID_STREAM', message: 'Model stream ended with empty response text.', code: 1 } }, null, 2);
    const got = await gemini.extract(processResult({ stdout }), request(), context());
    assert.deepEqual([got.text, got.failure?.class], [null, 'empty_output']);
  });

  it('stream-json: text written before a tool call is dropped, deltas are joined', async () => {
    const stdout = [
      '{"type":"init","session_id":"s-9","model":"gemini-2.5-flash"}',
      '{"type":"message","role":"assistant","content":"Let me read the file.","delta":true}',
      '{"type":"tool_use","tool_name":"read_file","tool_id":"t1","parameters":{}}',
      '{"type":"tool_result","tool_id":"t1","status":"success","output":""}',
      '{"type":"message","role":"assistant","content":"Done. ","delta":true}',
      '{"type":"message","role":"assistant","content":"All good.","delta":true}',
      '{"type":"result","status":"success","stats":{"input_tokens":50,"output_tokens":5,"cached":10,"duration_ms":321,"models":{"gemini-2.5-flash":{"total_tokens":55}}}}',
    ].join('\n');
    const got = await gemini.extract(processResult({ stdout }), request(), context());
    assert.equal(got.text, 'Done. All good.');
    assert.deepEqual(got.metrics, { inputTokens: 50, outputTokens: 5, cachedTokens: 10, costUsd: null, durationMs: 321, turns: null, sessionId: 's-9', model: 'gemini-2.5-flash' });
  });
});

describe('gemini adapter: failures named precisely', () => {
  it('JSON of an unexpected shape is invalid_envelope naming the bad field', async () => {
    const got = await gemini.extract(processResult({ stdout: JSON.stringify({ session_id: 's', response: 42 }) }), request(), context());
    assert.equal(got.failure?.class, 'invalid_envelope');
    assert.match(got.failure?.detail ?? '', /response: /);
    const stream = await gemini.extract(processResult({ stdout: '{"type":"init","session_id":"s"}\n{"type":"result","status":7}' }), request(), context());
    assert.match(stream.failure?.detail ?? '', /status: /);
  });

  it('a run ended by a signal says so, never "exit code null"', async () => {
    const stdout = '{"type":"init","session_id":"s","model":"m"}\n{"type":"result","status":"error"}';
    const got = await gemini.extract(processResult({ stdout, exitCode: null, signal: 'SIGKILL' }), request(), context());
    assert.equal(got.failure?.class, 'nonzero_exit');
    assert.match(got.failure?.detail ?? '', /signal SIGKILL/);
  });

  it('reads the stderr JSON block once for the session id and the error (one hostile stderr, quick)', { timeout: 60_000 }, async () => {
    const stderr = `{"session_id":"s-1","error":{"type":"Error","message":"quota","code":429}}\n${'}'.repeat(200_000)}`;
    const got = await gemini.extract(processResult({ stderr, exitCode: 1 }), request(), context());
    assert.deepEqual([got.failure?.class, got.failure?.httpStatus, got.metrics.sessionId], ['api_error', 429, 's-1']);
  });
});
