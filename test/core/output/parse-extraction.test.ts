import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyMetrics } from '../../../core/plugin-api/index.ts';
import { parseExtraction, readExtraction } from '../../../core/output/parse-extraction.ts';
import { loadOutputSchema } from '../../../core/output/schemas.ts';
import type { Extraction } from '../../../core/plugin-api/contracts.ts';
import { parserRegistry } from './_registry.ts';
import { thrownCode } from '../../helpers/thrown-code.ts';

const registry = parserRegistry();
const schema = loadOutputSchema('llm-chat', { baseDir: '/' });
const ex = (over: Partial<Extraction>): Extraction => ({ text: null, metrics: emptyMetrics(), ...over });
const parse = (extraction: Extraction) => parseExtraction(extraction, { registry, schema, adapter: 'cli' });
const fenced = (json: unknown) => `Done.\n\n\`\`\`json\n${JSON.stringify(json)}\n\`\`\`\n`;
const STUCK = { action: 'STUCK', evidence_files: [], summary_for_supervisor: 'Blocked.' };

describe('reading an extraction (text, structured, alternates)', () => {
  it('takes the first candidate that passes, in that order', () => {
    assert.equal(readExtraction(ex({ text: fenced(STUCK), structured: { nope: 1 } }), { parse: () => STUCK, validate: () => assert.fail() })?.source, 'text');
    assert.equal(parse(ex({ text: 'prose', structured: STUCK })).action, 'STUCK');
    assert.equal(parse(ex({ text: 'prose', structured: { action: 5 }, alternates: ['older prose', fenced({ ...STUCK, action: 'RETRY' })] })).action, 'RETRY');
  });

  it('no candidate at all: null for the engine, PARSE_NO_JSON for supervisor parse', () => {
    assert.equal(readExtraction(ex({ text: '  ', structured: null, alternates: [' '] }), { parse: assert.fail, validate: assert.fail }), null);
    assert.equal(thrownCode(() => parse(ex({ text: ' ' }))), 'PARSE_NO_JSON');
  });

  it("a structured answer's schema violations beat a text without JSON", () => {
    assert.equal(thrownCode(() => parse(ex({ text: 'no json here', structured: { action: 'BAD' } }))), 'OUTPUT_INVALID');
    // Otherwise the first candidate's error is the one reported.
    assert.equal(thrownCode(() => parse(ex({ text: '```json\n{oops\n```', structured: { action: 'BAD' } }))), 'PARSE_INVALID_JSON');
    assert.equal(thrownCode(() => parse(ex({ text: 'no json here', alternates: ['still none'] }))), 'PARSE_NO_JSON');
  });

  it('validates a structured answer through validateOutput: a deep answer for a recursive schema is OUTPUT_INVALID, not a crash', () => {
    const recursive = { name: 'tree', file: '/tree.json', schema: { type: 'object', properties: { child: { $ref: '#' } } } };
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20000; i++) deep = { child: deep };
    assert.equal(thrownCode(() => parseExtraction(ex({ structured: deep }), { registry, schema: recursive, adapter: 'cli' })), 'OUTPUT_INVALID');
  });

  it('stops at once on an error that is not an answer error', () => {
    assert.equal(thrownCode(() => parseExtraction(ex({ text: 'x', structured: STUCK }), { registry, parser: 'nope', schema, adapter: 'cli' })), 'PLUGIN_NOT_FOUND');
  });
});
