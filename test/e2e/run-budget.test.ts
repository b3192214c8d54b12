/**
 * The budget keeps what fits (issue 14, item 3), through `supervisor run`: the built-in oneshot
 * role (include $TARGET and README*, token_budget 20000) on a 228 KB target keeps the target's
 * head with a marker and the small README whole, and the run log says what was cut.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readEvents } from '../../core/runs/runs-store.ts';
import { makeRepo } from '../helpers/git-repo.ts';
import { fenced, replies, runJson } from './_run.ts';

/** About 228 KB of source, numbered lines. */
const bigSource = () => Array.from({ length: 4700 }, (_, i) => `export const value${String(i).padStart(5, '0')} = ${i} * 2; // line ${i + 1}`).join('\n') + '\n';

describe('run: the budget keeps what fits', () => {
  it('a 228 KB target keeps its head, cut with a marker; a small README is kept whole; the run log names the cut', async () => {
    const source = bigSource();
    assert.ok(source.length > 220_000 && source.length < 240_000);
    const repo = await makeRepo({ 'README.md': '# demo\n\nSmall readme.\n', 'src/big.ts': source });
    const answer = { action: 'COMPLETED', evidence_files: [], summary_for_supervisor: 'Done.' };
    const run = await runJson(repo, ['oneshot', '--task', 'look at big.ts', '--target', 'src/big.ts'], { FAKE_CLI_REPLY_FILE: await replies(fenced(answer)) });
    assert.equal(run.code, 0, run.stderr);
    const prompt = readFileSync(join(run.result.run_dir, 'prompt.md'), 'utf8');
    assert.ok(prompt.length <= 20000 * 4 + 4000, `${prompt.length} chars`);
    assert.match(prompt, /### src\/big\.ts\n\n```\nexport const value00000 = 0 \* 2; \/\/ line 1\n/);
    assert.match(prompt, /\n```\n\[Truncated to fit the token budget: kept \d+ of 4700 lines of src\/big\.ts\]\n/);
    assert.match(prompt, /### README\.md\n\n```\n# demo\n\nSmall readme\.\n\n```/);
    const built = readEvents(run.result.run_dir).find((e) => e.kind === 'prompt_built')!;
    assert.deepEqual(built.truncated, ['src/big.ts']);
    assert.deepEqual(built.left_out, []);
    assert.deepEqual(built.pruned, []);
  });
});
