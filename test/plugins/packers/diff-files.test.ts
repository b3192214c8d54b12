/** Splitting a diff by file: plain and C-quoted headers, odd names, text git never puts first. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headerPath, scanTexts, splitDiff } from '../../../plugins/packers/_diff-files.ts';

describe('diff by file', () => {
  it('reads plain, spaced and quoted header paths, and refuses ambiguous ones', () => {
    assert.equal(headerPath('diff --git a/src/a.ts b/src/a.ts'), 'src/a.ts');
    assert.equal(headerPath('diff --git a/x b/y b/x b/y'), 'x b/y');
    assert.equal(headerPath('diff --git "a/new\\nline.ts" "b/new\\nline.ts"'), 'new\nline.ts');
    assert.equal(headerPath('diff --git "a/caf\\303\\251" "b/caf\\303\\251"'), 'café');
    assert.equal(headerPath('diff --git a/x b/y'), undefined);
  });

  it("cuts the diff at each file's header, keeping every byte", () => {
    const diff = 'diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/.env b/.env\nnew file mode 100644\n+K=v\n';
    const files = splitDiff(diff);
    assert.deepEqual(files.map((f) => f.path), ['a', '.env']);
    assert.equal(files.map((f) => f.text).join(''), diff);
    assert.deepEqual(splitDiff('junk\ndiff --git a/a b/a\n+x\n').map((f) => f.path), ['', 'a']);
  });

  it('scans the lines without their diff column too, so a key spread over lines reads whole', () => {
    const diff = 'diff --git a/k b/k\n+++ b/k\n+-----BEGIN\n+body\n';
    assert.deepEqual(scanTexts({ path: 'k', text: diff }), [diff, '-----BEGIN\nbody']);
  });

  it('names a renamed file by its rename lines, with where it came from', () => {
    const diff = 'diff --git a/old name.ts b/new name.ts\nsimilarity index 90%\nrename from old name.ts\nrename to new name.ts\n';
    assert.deepEqual(splitDiff(diff).map(({ path, from }) => ({ path, from })), [{ path: 'new name.ts', from: 'old name.ts' }]);
  });
});
