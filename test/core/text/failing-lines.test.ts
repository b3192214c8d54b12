import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failingLines } from '../../../core/text/failing-lines.ts';

describe('failingLines: what a failing command shows', () => {
  it('the first error line and the last lines, whole lines, not 2000 characters starting mid-line', () => {
    const warnings = Array.from({ length: 200 }, (_, i) => `  src/file${i}.js:1:1  warning  Unexpected console statement  no-console`);
    const output = ['> eslint .', '', '/repo/index.js', '  3:7  error  \'x\' is assigned a value but never used  no-unused-vars', ...warnings, '', '✖ 201 problems (1 error, 200 warnings)'].join('\n');
    const shown = failingLines(output, 2000);
    const lines = shown.split('\n');
    assert.match(lines[0]!, /3:7 {2}error {2}'x' is assigned/);
    assert.match(lines[1]!, /^\[\.\.\. \d+ line\(s\) \.\.\.\]$/);
    assert.equal(lines.at(-1), '✖ 201 problems (1 error, 200 warnings)');
    assert.ok(shown.length <= 2000);
    for (const line of lines.slice(2)) assert.ok(output.split('\n').includes(line), `a whole line: ${line}`);
  });

  it('short output is shown whole; with no error line, the last lines', () => {
    assert.equal(failingLines('a\nb\nnot ok 1 - adds\n'), 'a\nb\nnot ok 1 - adds');
    const long = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const shown = failingLines(long).split('\n');
    assert.equal(shown[0], '[... 30 line(s) ...]');
    assert.equal(shown.at(-1), 'line 49');
  });
});
