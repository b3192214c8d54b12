/**
 * One test per real CLI capture in test/fixtures/cli/<cli>/<case>.*: the adapter's extract()
 * must give the final text, metrics and failure class written in <case>.expected.json.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { AdapterPlugin, FailureClass } from '../../../core/plugin-api/index.ts';
import claude from '../../../plugins/adapters/claude.ts';
import cline from '../../../plugins/adapters/cline.ts';
import codex from '../../../plugins/adapters/codex.ts';
import gemini from '../../../plugins/adapters/gemini.ts';
import { baseRequest, listCaptures, processResultOf, scratchFor, type Cli, type Expected } from './captures.ts';

const adapters: Record<Cli, AdapterPlugin> = { claude, codex, gemini, cline };
const captures = await listCaptures();
const ctx = { env: {}, self: { bin: process.execPath, args: [] }, notice: () => {} };
const seen = new Map<Cli, Set<FailureClass | 'success'>>();

describe('real CLI captures through extract()', () => {
  it('has at least 60 captures, from every CLI', () => {
    assert.ok(captures.length >= 60, `only ${captures.length} captures`);
    for (const cli of Object.keys(adapters)) assert.ok(captures.some((c) => c.cli === cli), cli);
  });

  for (const capture of captures) {
    it(`${capture.cli}/${capture.name}`, async () => {
      const expected = JSON.parse(await readFile(capture.expectedFile, 'utf8')) as Expected;
      const scratch = await scratchFor(capture);
      try {
        const result = await processResultOf(capture, expected.process);
        const got = await adapters[capture.cli].extract(result, baseRequest(scratch, expected.request), ctx);
        assert.equal(got.text, expected.text, 'text');
        assert.deepEqual(got.structured, expected.structured, 'structured');
        assert.deepEqual(got.alternates, expected.alternates, 'alternates');
        assert.deepEqual(got.metrics, expected.metrics, 'metrics');
        if (expected.failure === null) assert.equal(got.failure, undefined, `unexpected failure: ${JSON.stringify(got.failure)}`);
        else {
          assert.ok(got.failure, 'expected a failure');
          assert.equal(got.failure.class, expected.failure.class, `failure class (${got.failure.detail})`);
          assert.equal(got.failure.httpStatus, expected.failure.httpStatus, 'httpStatus');
          if (expected.failure.retryable !== undefined) assert.equal(got.failure.retryable, expected.failure.retryable, 'retryable');
          assert.match(got.failure.detail, /\S/, 'a failure has a detail');
          if (expected.failure.detailIncludes) assert.ok(got.failure.detail.includes(expected.failure.detailIncludes), got.failure.detail);
        }
        const classes = seen.get(capture.cli) ?? new Set();
        classes.add(got.failure?.class ?? 'success');
        seen.set(capture.cli, classes);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    });
  }

  it('every CLI has a capture of HTTP 401, 403, 429 and 5xx, each read as api_error (synthetic ones say so in their .cmd)', async () => {
    for (const cli of Object.keys(adapters)) {
      for (const status of ['401', '403', '429', '5\\d\\d']) {
        // The adapters read the JSON envelopes; text-mode captures show what the seeds assumed.
        const found = captures.filter((c) => c.cli === cli && !/^(exec-)?text-/.test(c.name) && new RegExp(`http${status}`).test(c.name));
        assert.ok(found.length, `${cli}: no capture of HTTP ${status}`);
        for (const capture of found) {
          const expected = JSON.parse(await readFile(capture.expectedFile, 'utf8')) as Expected;
          if (/synthetic/.test(capture.name)) assert.match(await readFile(capture.expectedFile.replace(/\.expected\.json$/, '.cmd'), 'utf8'), /^# SYNTHETIC/);
          // Killed runs (timeouts) of these scenarios end as timeouts; the rest are API errors.
          if (expected.failure?.class !== 'timeout') assert.equal(expected.failure?.class, 'api_error', `${cli}/${capture.name}`);
        }
      }
    }
  });

  it('the captures cover success and each failure kind the CLIs show', () => {
    const all = new Set([...seen.values()].flatMap((s) => [...s]));
    for (const cls of ['success', 'timeout', 'nonzero_exit', 'empty_output', 'invalid_envelope', 'api_error', 'max_turns', 'interrupted'] as const) {
      assert.ok(all.has(cls), `no capture ends in ${cls}`);
    }
    for (const [cli, classes] of seen) for (const cls of ['success', 'api_error', 'timeout'] as const) assert.ok(classes.has(cls), `${cli}: no ${cls} capture`);
  });
});
