import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dropForcedNulls, toStrictSchema } from '../../../plugins/adapters/_shared/strict-schema.ts';

describe('strict schemas (codex --output-schema)', () => {
  it('drops forced nulls inside anyOf / oneOf members, where toStrictSchema made them required', () => {
    const change = { type: 'object', properties: { file: { type: 'string' }, note: { type: 'string' } }, required: ['file'] };
    const schema = {
      type: 'object',
      properties: {
        change: { anyOf: [change, { type: 'string' }] },
        other: { oneOf: [{ type: 'integer' }, change] },
        list: { type: 'array', items: { anyOf: [change] } },
      },
      required: ['change', 'other', 'list'],
    };
    const strict = toStrictSchema(schema) as { properties: { change: { anyOf: { required: string[] }[] } } };
    assert.deepEqual(strict.properties.change.anyOf[0]!.required, ['file', 'note'], 'the nested object is strict');
    const answer = { change: { file: 'a.ts', note: null }, other: { file: 'b.ts', note: null }, list: [{ file: 'c.ts', note: null }] };
    assert.deepEqual(dropForcedNulls(answer, schema), { change: { file: 'a.ts' }, other: { file: 'b.ts' }, list: [{ file: 'c.ts' }] });
  });

  it('follows $ref into $defs, and keeps nulls the original schema allows', () => {
    const schema = {
      type: 'object',
      properties: { step: { $ref: '#/$defs/step' }, why: { type: ['string', 'null'] } },
      $defs: { step: { type: 'object', properties: { name: { type: 'string' }, done: { type: 'boolean' }, note: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['name'] } },
    };
    const strict = toStrictSchema(schema) as { $defs: { step: { required: string[]; additionalProperties: boolean } } };
    assert.deepEqual([strict.$defs.step.required, strict.$defs.step.additionalProperties], [['name', 'done', 'note'], false]);
    assert.deepEqual(dropForcedNulls({ step: { name: 'x', done: null, note: null }, why: null }, schema), { step: { name: 'x', note: null }, why: null });
  });
});
