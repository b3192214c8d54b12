import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeFileAtomic, writeJsonAtomic } from '../../../core/fs/atomic-file.ts';

const root = mkdtempSync(join(tmpdir(), 'sv-atomic-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('writeFileAtomic replaces the file whole and leaves no temporary file beside it', () => {
  const file = join(root, 'a', 'state.json');
  writeFileAtomic(file, 'old');
  writeFileAtomic(file, 'new content');
  assert.equal(readFileSync(file, 'utf8'), 'new content');
  assert.deepEqual(readdirSync(join(root, 'a')), ['state.json']);
});

test('writeJsonAtomic writes pretty JSON with a final newline and the mode asked for', () => {
  const file = join(root, 'b.json');
  writeJsonAtomic(file, { a: 1 }, { mode: 0o600 });
  assert.equal(readFileSync(file, 'utf8'), '{\n  "a": 1\n}\n');
  assert.equal(statSync(file).mode & 0o777, 0o600);
});

test('a failed write leaves the old file as it was', () => {
  const dir = join(root, 'c');
  const file = join(dir, 'x');
  writeFileAtomic(file, 'kept');
  writeFileSync(join(dir, 'blocker'), '');
  assert.throws(() => writeFileAtomic(join(dir, 'blocker', 'y'), 'z'));
  assert.equal(readFileSync(file, 'utf8'), 'kept');
});
