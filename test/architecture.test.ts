import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every folder under `dir` (relative to the repository), itself included. */
function folders(dir: string): string[] {
  const below = readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => folders(`${dir}/${entry.name}`));
  return [dir, ...below];
}

/** The folders ARCHITECTURE.md's folder table lists, one per row: | `core/x/` | ... |. */
function listedFolders(): string[] {
  const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  return [...text.matchAll(/^\| `([^`]+)\/` \|/gm)].map((match) => match[1]!);
}

describe('ARCHITECTURE.md', () => {
  it('lists every folder of core/ and plugins/ once, and none that does not exist', () => {
    const tree = [...folders('core'), ...folders('plugins')].filter((dir) => dir !== 'core' && dir !== 'plugins').sort();
    const listed = listedFolders();
    assert.deepEqual([...listed].sort(), [...new Set(listed)].sort(), 'a folder is listed twice');
    assert.deepEqual({ missing: tree.filter((dir) => !listed.includes(dir)), extra: listed.filter((dir) => !tree.includes(dir)) }, { missing: [], extra: [] });
  });

  it('links to SECURITY.md for the invariants', () => {
    assert.match(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'), /\]\(SECURITY\.md\)/);
  });
});
