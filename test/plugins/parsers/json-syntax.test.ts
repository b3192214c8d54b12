import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findJsonSyntaxError, tooDeepAt } from '../../../plugins/parsers/lib/json-syntax.ts';
import { forAWhile, mutate } from './_random.ts';

const errorAt = (src: string) => {
  const found = findJsonSyntaxError(src);
  assert.ok(found, `expected an error in ${JSON.stringify(src)}`);
  return [found.offset, found.message] as const;
};

describe('findJsonSyntaxError', () => {
  it('accepts valid JSON of every kind', () => {
    for (const src of ['{}', '[]', '0', '-0.5e+10', '"a\\u00e9\\n"', 'true', ' null ', '{"a": [1, {"b": [true, false, null]}], "c": "d"}', '[[[]]]', '\t\r\n{"x":-1E-2}\n']) {
      assert.equal(findJsonSyntaxError(src), null, src);
    }
  });

  it('points at the first error and says what it is', () => {
    assert.deepEqual(errorAt('{"a": 1,}'), [7, "a trailing comma before '}'"]);
    assert.deepEqual(errorAt('[1, 2,]'), [5, "a trailing comma before ']'"]);
    assert.deepEqual(errorAt('{"a" 1}'), [5, "expected ':' after the property name, found \"1\""]);
    assert.deepEqual(errorAt('{"a": 1 "b": 2}'), [8, "expected ',' or '}', found \"\\\"\""]);
    assert.deepEqual(errorAt("{'a': 1}"), [1, 'property names must use double quotes, not single quotes']);
    assert.deepEqual(errorAt('{"a": "line\nbreak"}'), [11, 'a raw control character (such as a line break) inside a string; escape it']);
    assert.deepEqual(errorAt('{"a": "open'), [6, 'a string that is never closed']);
    assert.deepEqual(errorAt('{"a": 01}'), [6, 'a number with a leading zero']);
    assert.deepEqual(errorAt('{"a": 1.}'), [8, 'a number needs digits after the decimal point']);
    assert.deepEqual(errorAt('{"a": "\\x"}'), [7, 'invalid escape "\\\\x" in a string']);
    assert.deepEqual(errorAt('{"a": NaN}'), [6, 'unexpected word "NaN": JSON allows only true, false and null']);
    assert.deepEqual(errorAt('{"a": 1'), [7, "expected ',' or '}', found the end of the block"]);
    assert.deepEqual(errorAt('{"a": 1}}'), [8, 'unexpected "}" after the end of the JSON value']);
    assert.deepEqual(errorAt(''), [0, 'unexpected end of the block: a value is missing']);
  });

  it('agrees with JSON.parse on thousands of mutated documents (seeded)', () => {
    const seeds = ['{"status": "SUCCESS", "files": ["a.ts", "b\\"c"], "n": -1.5e3, "ok": true, "x": null}', '[{"a": {}}, [], "\\u00e9", 0]'];
    const runs = forAWhile(20240601, 1500, 20000, (random) => {
      const src = mutate(random, random.pick(seeds));
      let valid = true;
      try {
        JSON.parse(src);
      } catch {
        valid = false;
      }
      const found = findJsonSyntaxError(src);
      assert.equal(found === null, valid, `disagreement on ${JSON.stringify(src)}: ${found?.message}`);
      if (found) assert.ok(found.offset >= 0 && found.offset <= src.length);
    });
    assert.ok(runs > 100);
  });

  it('handles very deep nesting without recursion', () => {
    const deep = '['.repeat(200_000);
    assert.deepEqual(errorAt(deep), [200_000, 'unexpected end of the block: a value is missing']);
    assert.equal(tooDeepAt(deep, 512), 512);
    assert.equal(tooDeepAt(`"${'['.repeat(2000)}"`, 512), -1, 'brackets in strings do not count');
  });
});
