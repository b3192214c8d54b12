/** core/json-schema.ts: violations at the pointer of the field they are about, with escaped tokens. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapePointerToken, unescapePointerToken, validateJson } from '../../core/json-schema.ts';

describe('validateJson violations', () => {
  it('reports each missing required field at its own escaped pointer', () => {
    const schema = { type: 'object', required: ['status', 'a/b~c'], properties: { inner: { type: 'object', required: ['id'] } } };
    const outcome = validateJson(schema, { inner: {} });
    assert.equal(outcome.valid, false);
    assert.deepEqual(
      outcome.violations.map((v) => [v.pointer, v.keyword, v.message]).sort(),
      [
        ['/a~1b~0c', 'required', 'missing: a/b~c is required'],
        ['/inner/id', 'required', 'missing: id is required'],
        ['/status', 'required', 'missing: status is required'],
      ],
    );
  });

  it('reports an unknown field at its own escaped pointer', () => {
    const outcome = validateJson({ type: 'object', additionalProperties: false }, { 'x/y': 1 });
    assert.deepEqual(outcome.violations, [{ pointer: '/x~1y', keyword: 'additionalProperties', message: 'unknown field "x/y" (not allowed here)' }]);
  });
});

describe('JSON pointer tokens', () => {
  it('escape "~" before "/" and unescape in the reverse order, so they round-trip', () => {
    assert.equal(escapePointerToken('a/b~c~1'), 'a~1b~0c~01');
    for (const key of ['a/b~c~1', '~01', '/~', 'plain', '']) assert.equal(unescapePointerToken(escapePointerToken(key)), key);
    assert.equal(unescapePointerToken('~01'), '~1');
  });
});
