/**
 * The budget keeps what fits, file by file (issue 14, item 3): `pack --include ... --budget`
 * used to print one byte when the files part was over budget as a whole.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const source = (name: string, chars: number) => {
  const line = `export const ${name.replace(/\W/g, '_')} = 1; // padding padding padding\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars - 1) + '\n';
};

describe('pack --budget keeps what fits', () => {
  it('keeps files whole in their sorted order up to the line; --stats says what was left out', async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`core/m${String(i).padStart(2, '0')}.ts`, source(`m${i}`, 3000)]));
    const repo = await makeRepo(files);
    const run = await runCli(['pack', '--include', 'core/**/*.ts', '--budget', '20000', '--stats'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.length <= 20000 * 4 + 1, `${run.stdout.length} chars`);
    const kept = [...run.stdout.matchAll(/^### (core\/m\d+\.ts)$/gm)].map((m) => m[1]!);
    assert.ok(kept.length >= 20, `kept ${kept.length} files`);
    assert.deepEqual(kept, Object.keys(files).slice(0, kept.length));
    assert.match(run.stderr, /^pruned: nothing$/m);
    assert.match(run.stderr, new RegExp(`^  files: ${40 - kept.length} files left out: core/m${kept.length}\\.ts`, 'm'));
  });

  it('cuts the file that crosses the line with a marker when later files do not fit whole', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`a${i}.ts`] = source(`a${i}`, 3000);
    files['m-big.ts'] = source('big', 100_000);
    for (let i = 0; i < 3; i++) files[`z${i}.ts`] = source(`z${i}`, 70_000);
    const repo = await makeRepo(files);
    const run = await runCli(['pack', '--include', '**/*.ts', '--budget', '20000', '--stats'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.length <= 20000 * 4 + 1, `${run.stdout.length} chars`);
    assert.ok(run.stdout.length > 20000 * 4 - 1000, 'the room left is used');
    assert.match(run.stdout, /### m-big\.ts\n\n```\nexport const big = 1;[^]*\n```\n\[Truncated to fit the token budget: kept \d+ of \d+ lines of m-big\.ts\]\n$/);
    assert.match(run.stderr, /^  files: 3 files left out: z0\.ts, z1\.ts, z2\.ts$/m);
    assert.match(run.stderr, /^  files: cut at the budget line: m-big\.ts$/m);
  });

  it('with o200k: what is kept fits the budget counted exactly, and the line is still cut', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`m${String(i).padStart(2, '0')}.ts`] = source(`m${i}`, 3000 + i * 97);
    const repo = await makeRepo(files);
    const run = await runCli(['pack', '--include', '**/*.ts', '--budget', '6000', '--tokenizer', 'o200k', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { text: string; estimated_tokens: number; budget_tokens: number; parts: { files: string[]; left_out: string[]; truncated: string[] }[] };
    const { estimateTokens, loadTokenizer } = await import('../../../core/context/tokens.ts');
    await loadTokenizer('o200k');
    assert.equal(out.estimated_tokens, estimateTokens(out.text, 'o200k'));
    assert.ok(out.estimated_tokens <= out.budget_tokens, `${out.estimated_tokens} > ${out.budget_tokens}`);
    assert.ok(out.estimated_tokens > out.budget_tokens - 200, 'the room is used');
    const [part] = out.parts;
    assert.equal(part!.files.length + part!.left_out.length, 30);
    assert.equal(part!.truncated.length, 1);
  });
});
