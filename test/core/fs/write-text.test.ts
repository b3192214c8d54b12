import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeTextFile } from '../../../core/fs/write-text.ts';

const root = mkdtempSync(join(tmpdir(), 'sv-write-text-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('writeTextFile writes the text as UTF-8 with one final newline, replacing a longer file', () => {
  const file = join(root, 'out.xml');
  writeFileSync(file, 'x'.repeat(10_000));
  const text = `<files>\n${'é€😀 '.repeat(50_000)}\n</files>`; // two-byte, past one write's worth
  writeTextFile(file, text);
  assert.equal(readFileSync(file, 'utf8'), `${text}\n`);
  writeTextFile(file, 'ends\n');
  assert.equal(readFileSync(file, 'utf8'), 'ends\n', 'no second newline');
});

test('writeTextFile fails with the file system error for a folder that does not exist', () => {
  assert.throws(() => writeTextFile(join(root, 'missing', 'out.md'), 'x'), { code: 'ENOENT' });
});
