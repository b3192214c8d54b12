import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateJson } from '../../../core/json-schema.ts';
import { answerFormat } from '../../../core/output/answer-format.ts';
import { loadOutputSchema } from '../../../core/output/schemas.ts';
import { definePlugin, type ParserContext } from '../../../core/plugin-api/index.ts';
import { parserRegistry } from './_registry.ts';
import { thrownCode } from '../../helpers/thrown-code.ts';

const review = loadOutputSchema('review', { baseDir: '/' });
const registry = parserRegistry();

const lastJsonBlock = (text: string) => JSON.parse([...text.matchAll(/```json\n([\s\S]*?)\n```/g)].at(-1)![1]!) as unknown;

describe('answerFormat: the answer format in the parser’s own words', () => {
  it('fenced-json: the seed’s required wording; the schema and a valid example only when the prompt lacks them', () => {
    const shown = answerFormat({ registry, schema: review, schemaInPrompt: true });
    assert.match(shown, /^You MUST end your response with a fenced JSON code block/);
    assert.match(shown, /Bare JSON without fences will NOT be accepted/);
    assert.doesNotMatch(shown, /validate against this JSON Schema/);
    const full = answerFormat({ registry, schema: review });
    assert.ok(full.startsWith(shown));
    assert.match(full, /The object must validate against this JSON Schema \("review"\)/);
    assert.deepEqual(validateJson(review.schema, lastJsonBlock(full)).violations, []);
  });

  it("v2-headers: the v2 format for the role's own v2 role", () => {
    const text = answerFormat({ registry, parser: 'v2-headers', schema: loadOutputSchema('v2-result', { baseDir: '/' }), role: { name: 'checker', baseRole: 'spec-reviewer' } });
    assert.match(text, /the very first line is\n`role: spec-reviewer`/);
  });

  it('a parser without formatInstructions: its name, and the schema unless the prompt shows it', () => {
    const plain = parserRegistry(definePlugin({ kind: 'parser', name: 'plain', parse: (_t, ctx) => ctx.validate({}) }));
    assert.match(answerFormat({ registry: plain, parser: 'plain', schema: review, schemaInPrompt: true }), /read by the `plain` parser/);
    assert.match(answerFormat({ registry: plain, parser: 'plain', schema: review }), /validate against this JSON Schema \("review"\)/);
  });

  it("hands the parser the core's ParserContext: validate is validateOutput (objects only, defaults, OUTPUT_INVALID)", () => {
    let seen: ParserContext | undefined;
    const probe = parserRegistry(definePlugin({ kind: 'parser', name: 'probe', parse: (_t, ctx) => ctx.validate({}), formatInstructions: (ctx) => ((seen = ctx), 'PROBE') }));
    assert.equal(answerFormat({ registry: probe, parser: 'probe', schema: loadOutputSchema('generic', { baseDir: '/' }), role: { name: 'r', baseRole: null }, legacy: true }), 'PROBE');
    assert.deepEqual([seen!.schemaName, seen!.legacy, seen!.role], ['generic', true, { name: 'r', baseRole: null }]);
    assert.deepEqual(seen!.validate({}), { status: 'UNKNOWN' });
    assert.equal(thrownCode(() => seen!.validate([])), 'OUTPUT_INVALID');
  });

  it("an unknown parser is PLUGIN_NOT_FOUND; a hook's crash is PLUGIN_HOOK naming it", () => {
    assert.equal(thrownCode(() => answerFormat({ registry, parser: 'nope', schema: review })), 'PLUGIN_NOT_FOUND');
    const broken = parserRegistry(definePlugin({ kind: 'parser', name: 'broken', parse: (_t, ctx) => ctx.validate({}), formatInstructions: () => { throw new Error('boom'); } }));
    assert.equal(thrownCode(() => answerFormat({ registry: broken, parser: 'broken', schema: review })), 'PLUGIN_HOOK');
  });
});
