import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fencedJson, { extractJsonBlock, MAX_JSON_DEPTH } from '../../../plugins/parsers/fenced-json.ts';
import { parserContext, thrown } from './_context.ts';

const generic = parserContext('generic');
const parse = (text: string) => fencedJson.parse(text, generic);
const fence = (body: string, open = '```json', close = '```') => `${open}\n${body}\n${close}`;

describe('fenced-json: which blocks count', () => {
  it('takes the last block whose info string is json, ignoring other languages after it', () => {
    const text = [fence('{"n": 1}'), fence('{"n": 2}'), fence('{"n": 3}', '```ts'), 'trailing log line'].join('\n\n');
    assert.equal(parse(text).n, 2);
  });

  it('reads the language as the first word of the info string, in any case, after up to 3 spaces', () => {
    assert.equal(parse(fence('{"n": 1}', '```json title="answer"')).n, 1);
    assert.equal(parse(fence('{"n": 1}', '```JSON')).n, 1);
    assert.equal(parse(fence('{"n": 1}', '```   json')).n, 1);
    assert.equal(parse(fence('{"n": 1}', '   ```json', '   ```')).n, 1);
    assert.equal(parse(fence('{"n": 1}', '~~~json', '~~~')).n, 1);
    for (const open of ['```jsonc', '```json5', '```', '``json', '    ```json', '\t```json', '```js on']) {
      assert.equal(thrown(() => parse(fence('{"n": 1}', open))).code, 'PARSE_NO_JSON', open);
    }
  });

  it('a closing fence needs at least as many of the same character, and nothing but blanks after', () => {
    const inner = '{"doc": "x"}\n```\n{"still": "inside"}';
    assert.equal(thrown(() => parse(fence(inner, '````json', '````'))).code, 'PARSE_INVALID_JSON', 'the ``` line does not close a ```` fence');
    assert.equal(parse('````json\n{"n": 1}\n`````  \t\n').n, 1, 'a longer closing fence closes');
    const tilde = thrown(() => parse('~~~json\n{"n": 1}\n```\n~~~'));
    assert.deepEqual([tilde.code, tilde.details?.line], ['PARSE_INVALID_JSON', 3], 'a ``` line is content of a ~~~ block');
    assert.equal(parse('```json\n{"n": 2}\n```\n').n, 2);
    assert.equal(thrown(() => parse('```json\n{"n": 3}\n``` not a close\n')).code, 'PARSE_INVALID_JSON');
  });

  it('a "```" inside a JSON string does not cut the block', () => {
    const text = fence('{\n  "note": "wrap code in ``` fences",\n  "snippet": "```json {} ```"\n}');
    assert.deepEqual(parse(text), { note: 'wrap code in ``` fences', snippet: '```json {} ```', status: 'UNKNOWN' });
  });

  it('does not count a ```json block shown inside another fenced block', () => {
    const text = 'Example of the format:\n````markdown\n```json\n{"n": "example"}\n```\n````\n\n```json\n{"n": "real"}\n```\n\nAnd in a longer block:\n````text\n```json\n{"n": "quoted"}\n```\n````';
    assert.equal(parse(text).n, 'real');
  });

  it('works with CRLF line endings and a byte order mark', () => {
    assert.equal(parse('\ufeff```json\r\n{"n": 1,\r\n "m": [1, 2]}\r\n```\r\n').n, 1);
    assert.equal(parse('Done.\r\n\r\n```json\r\n{"n": 2}\r\n```').n, 2);
  });

  it('an unclosed fence runs to the end of the text, as in CommonMark', () => {
    assert.equal(parse('```json\n{"n": 1}\n').n, 1);
    assert.equal(parse('```json\n{"n": 1}').n, 1);
    const earlier = thrown(() => parse(`${fence('{"n": 1}')}\n\`\`\`json\n{"n": 2, "cut off`));
    assert.equal(earlier.code, 'PARSE_INVALID_JSON', 'the truncated last block is still the last block');
    assert.equal(earlier.details?.closed, false);
  });

  it('no block at all is PARSE_NO_JSON, and says when fences without json were seen', () => {
    assert.equal(thrown(() => parse('')).code, 'PARSE_NO_JSON');
    assert.equal(thrown(() => parse('APPROVED')).code, 'PARSE_NO_JSON');
    const other = thrown(() => parse(fence('{"n": 1}', '```')));
    assert.equal(other.details?.otherFences, 1);
    assert.match(other.message, /without the json info string/);
  });
});

describe('fenced-json: invalid JSON', () => {
  it('reports the line and column in the whole answer, and why', () => {
    const text = 'Intro line\n\n```json\n{\n  "status": "SUCCESS",\n  "files": ["a", "b",]\n}\n```\n';
    const error = thrown(() => parse(text));
    assert.equal(error.code, 'PARSE_INVALID_JSON');
    assert.deepEqual({ line: error.details?.line, column: error.details?.column, blockLine: error.details?.blockLine }, { line: 6, column: 21, blockLine: 3 });
    assert.match(error.message, /line 6, column 21: a trailing comma before '\]'/);
  });

  it('counts CRLF lines the same way', () => {
    const error = thrown(() => parse('a\r\n```json\r\n{"a": 1,\r\n "b": tru}\r\n```'));
    assert.deepEqual([error.details?.line, error.details?.column], [4, 7]);
    assert.match(error.message, /unexpected word "tru"/);
  });

  it('names common mistakes: single quotes, comments, text after the value, an empty block', () => {
    assert.match(thrown(() => parse(fence("{'a': 1}"))).message, /double quotes/);
    assert.match(thrown(() => parse(fence('{"a": 1} // done'))).message, /after the end of the JSON value/);
    assert.match(thrown(() => parse(fence('// answer\n{"a": 1}'))).message, /comments are not allowed/);
    const empty = thrown(() => parse(fence('  ')));
    assert.equal(empty.code, 'PARSE_INVALID_JSON');
    assert.match(empty.message, /empty/);
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels (it could not be printed), but not deep strings`, () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    assert.match(thrown(() => extractJsonBlock(fence(deep))).message, /nested deeper than 512/);
    const ok = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    assert.ok(Array.isArray(extractJsonBlock(fence(ok))));
    assert.equal(parse(fence(JSON.stringify({ s: '['.repeat(5000) }))).s, '['.repeat(5000));
  });
});

describe('fenced-json: schema', () => {
  it('validates through ctx.validate and applies the defaults', () => {
    const ctx = parserContext('implementation');
    assert.deepEqual(fencedJson.parse(fence('{"status": "PARTIAL", "action_taken": "x"}'), ctx).blockers, []);
    const error = thrown(() => fencedJson.parse(fence('{"status": "PARTIAL"}'), ctx));
    assert.equal(error.code, 'OUTPUT_INVALID');
  });
});

describe('fenced-json: hostile input', () => {
  // Ten MiB each; a quadratic scan would take minutes. The time limit is a safety net only.
  const MiB = 1024 * 1024;
  const cases: Record<string, string> = {
    'thousands of unclosed fences': '```json\n{\n'.repeat(MiB),
    'fences that never close, of growing length': Array.from({ length: 4000 }, (_, i) => '`'.repeat(3 + (i % 300))).join('\n').repeat(3).padEnd(10 * MiB, '`'),
    'one line of spaces then a fence': `${' '.repeat(10 * MiB)}\`\`\`json\n{}`,
    'one line of backticks': '`'.repeat(10 * MiB),
    'lines of backticks and spaces': '``` ``` ``` ```\n   ````\n  `\n'.repeat(MiB / 3),
    'an open fence of a million backticks, then lines of fewer': `${'`'.repeat(MiB)}json\n${'`'.repeat(1000)}\n`.repeat(9),
    'many small valid blocks': '```json\n{"n": 1}\n```\n'.repeat(MiB / 2),
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`finishes on ${name}`, { timeout: 30_000 }, () => {
      try {
        parse(text);
      } catch (error) {
        assert.match(String((error as { code?: string }).code), /^(PARSE_NO_JSON|PARSE_INVALID_JSON|OUTPUT_INVALID)$/);
      }
    });
  }
});
