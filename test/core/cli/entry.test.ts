/** The entries never end with exit 0 before main() settled, and send console output to stderr. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fromDecoratedStack } from '../../../core/plugins/error-location.ts';

const entry = fileURLToPath(new URL('../../../core/cli/entry.ts', import.meta.url));

function runScript(body: string) {
  const script = `const { runEntry } = await import(${JSON.stringify(entry)});\n${body}`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
}

describe('runEntry', () => {
  it('exits 2 with UNFINISHED when the event loop drains while main() is still pending', () => {
    const result = runScript("runEntry(['--json'], () => new Promise(() => {}));");
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(JSON.parse(result.stderr.trim()).error.code, 'UNFINISHED');
  });

  it("exits with main()'s code, and console.log reaches stderr, never stdout", () => {
    const result = runScript("runEntry([], async () => { console.log('from a plugin'); process.stdout.write('RESULT\\n'); return 1; });");
    assert.equal(result.status, 1);
    assert.equal(result.stdout, 'RESULT\n');
    assert.match(result.stderr, /from a plugin/);
  });
});

describe('load error locations', () => {
  it("reads line and column from Node's decorated stack (a file:line header and a caret)", () => {
    assert.deepEqual(fromDecoratedStack("file:///p/bad.ts:5\n  parse(text) { return {;\n                        ^\n\nSyntaxError: x"), { line: 5, column: 25 });
    assert.equal(fromDecoratedStack('SyntaxError: no location\n    at x'), undefined);
  });
});
