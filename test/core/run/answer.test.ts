import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { processFailure, readAnswer } from '../../../core/run/answer.ts';
import { errors } from '../../../core/errors.ts';
import { emptyMetrics } from '../../../core/plugin-api/index.ts';
import type { RunProcessResult } from '../../../core/process/run-process.ts';

const proc = (over: Partial<RunProcessResult> = {}): RunProcessResult => ({
  stdout: '', stderr: '', exitCode: 0, signal: null, durationMs: 1, timedOut: false, interrupted: false,
  truncated: { stdout: false, stderr: false }, notFound: false, ...over,
});
const schema = { type: 'object', required: ['status'], properties: { status: { type: 'string' } } };
const parse = (text: string) => {
  const match = /```json\n([\s\S]*?)\n```/.exec(text);
  if (!match) throw errors.parseNoJson('no json block');
  return JSON.parse(match[1]!) as Record<string, unknown>;
};
const opts = { bin: 'cli', schema, parse };
const ex = (over: object) => ({ text: null, metrics: emptyMetrics(), ...over });

describe('reading an answer', () => {
  it('classifies what the process shows first', () => {
    assert.equal(processFailure(proc({ notFound: true, spawnError: 'ENOENT' }), 'cli', 1000)?.class, 'not_found');
    assert.equal(processFailure(proc({ interrupted: true, timedOut: true }), 'cli', 1000)?.class, 'interrupted');
    assert.match(processFailure(proc({ timedOut: true }), 'cli', 1500)?.detail ?? '', /within 1.5s/);
    assert.equal(processFailure(proc(), 'cli', 1000), null);
  });

  it("keeps the adapter's failure class", () => {
    const out = readAnswer(proc({ exitCode: 1 }), ex({ failure: { class: 'api_error', detail: 'HTTP 500', httpStatus: 500 } }), opts);
    assert.deepEqual(out, { ok: false, failure: { class: 'api_error', detail: 'HTTP 500', httpStatus: 500 } });
  });

  it('tells empty output from a non-zero exit', () => {
    assert.equal((readAnswer(proc(), ex({ text: '  ' }), opts) as { failure: { class: string } }).failure.class, 'empty_output');
    const failed = readAnswer(proc({ exitCode: 2, stderr: 'boom' }), ex({}), opts) as { failure: { class: string; detail: string } };
    assert.equal(failed.failure.class, 'nonzero_exit');
    assert.match(failed.failure.detail, /exited with code 2: boom/);
  });

  it('maps parse errors to no_json / invalid_output', () => {
    assert.equal((readAnswer(proc(), ex({ text: 'no block' }), opts) as { failure: { class: string } }).failure.class, 'no_json');
    const invalid = (t: string) => {
      throw errors.outputInvalid(`bad ${t.length}`);
    };
    assert.equal((readAnswer(proc(), ex({ text: 'x' }), { ...opts, parse: invalid }) as { failure: { class: string } }).failure.class, 'invalid_output');
  });

  it('tries text, then a valid structured answer, then alternates newest first', () => {
    const good = '```json\n{"status":"SUCCESS"}\n```';
    assert.deepEqual(readAnswer(proc(), ex({ text: good }), opts), { ok: true, output: { status: 'SUCCESS' }, source: 'text' });
    assert.deepEqual(readAnswer(proc(), ex({ text: 'prose', structured: { status: 'APPROVED' } }), opts), { ok: true, output: { status: 'APPROVED' }, source: 'structured' });
    assert.deepEqual(readAnswer(proc(), ex({ text: 'prose', structured: { nope: 1 }, alternates: ['older prose', good] }), opts), { ok: true, output: { status: 'SUCCESS' }, source: 'alternate' });
  });

  it('accepts a valid answer despite a non-zero exit, and blames the exit when there is none', () => {
    assert.equal(readAnswer(proc({ exitCode: 1 }), ex({ text: '```json\n{"status":"SUCCESS"}\n```' }), opts).ok, true);
    assert.equal((readAnswer(proc({ exitCode: 1 }), ex({ text: 'garbage' }), opts) as { failure: { class: string } }).failure.class, 'nonzero_exit');
  });

  it('does not blame the model for a broken parser setup', () => {
    assert.throws(() => readAnswer(proc(), ex({ text: 'x' }), { ...opts, parse: () => { throw errors.pluginNotFound('parser', 'nope', []); } }), { code: 'PLUGIN_NOT_FOUND' });
  });
});

describe('reading a structured answer', () => {
  it('names the schema violations of an invalid structured answer instead of "no JSON"', () => {
    const out = readAnswer(proc(), ex({ text: '{"status": 5}', structured: { status: 5 } }), opts) as { failure: { class: string; detail: string } };
    assert.equal(out.failure.class, 'invalid_output');
    assert.match(out.failure.detail, /\/status/);
  });
});

describe('one reading for run and supervisor parse', () => {
  it('no JSON in the text and an invalid structured answer: invalid_output, as supervisor parse --cli says OUTPUT_INVALID', () => {
    const out = readAnswer(proc(), ex({ text: 'I am done.', structured: { status: 5 } }), opts) as { failure: { class: string } };
    assert.equal(out.failure.class, 'invalid_output');
  });

  it('a deep structured answer for a recursive schema is invalid_output, not a crash', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20000; i++) deep = { child: deep };
    const recursive = { type: 'object', properties: { child: { $ref: '#' } } };
    const out = readAnswer(proc(), ex({ structured: deep }), { ...opts, schema: recursive }) as { failure: { class: string; detail: string } };
    assert.equal(out.failure.class, 'invalid_output');
    assert.match(out.failure.detail, /nested too deeply/);
  });

  it('a structured null is no answer', () => {
    assert.equal((readAnswer(proc(), ex({ structured: null }), opts) as { failure: { class: string } }).failure.class, 'empty_output');
  });
});
