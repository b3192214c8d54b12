/** A warm count cache answers without the tokenizer: a warm `pack --stats --tokenizer o200k` loads none. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createMeasure } from '../../../core/context/measure.ts';
import { tempDir } from '../../helpers/git-repo.ts';

describe('o200k counts from a warm cache', () => {
  it('are read without loading the tokenizer; a piece the cache lacks still needs it', async () => {
    const repo = await tempDir();
    const text = 'const a = 1;\nexport default a;\n'; // one piece (no section start)
    mkdirSync(join(repo, '.supervisor', 'cache'), { recursive: true });
    const key = createHash('sha1').update(text).digest('base64url');
    writeFileSync(join(repo, '.supervisor', 'cache', 'o200k-counts.txt'), `${key} 17\n`);
    const measure = createMeasure('o200k', repo, {});
    assert.equal(measure.known(text), true);
    assert.equal(measure.tokens(text), 17); // the cached number: nothing was counted
    assert.equal(measure.known('something else'), false);
    assert.throws(() => measure.tokens('something else'), { code: 'TOKENIZER_NOT_LOADED' });
    assert.equal(createMeasure('chars').known('anything'), true);
  });
});
