/** `supervisor pack` end to end, in-process, on real temporary repositories. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { chars } from './_helpers.ts';

describe('supervisor pack', () => {
  it('without a role packs the whole repository, sorted, honouring .gitignore', async () => {
    const repo = await makeRepo({ '.gitignore': 'out/\n', 'b.ts': 'b\n', 'a.ts': 'a\n', 'out/x.ts': 'x\n' });
    const run = await runCli(['pack'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^## Files\n\n### \.gitignore\n[^]*### a\.ts\n[^]*### b\.ts\n/);
    assert.match(run.stdout, /```\n$/, 'the text ends with one newline');
    assert.doesNotMatch(run.stdout, /out\/x\.ts/);
    assert.equal(run.stderr, '');
  });

  it('--json gives text, parts, pruned, notices, warnings and estimated_tokens (snake_case keys)', async () => {
    const repo = await makeRepo({ 'src/a.ts': 'a\n', 'src/t.ts': 't\n', 'src/big.ts': chars(20000) });
    const run = await runCli(['pack', '--json', '--include', 'src/**', '--target', 'src/t.ts', '--budget', '2000'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(out), ['text', 'parts', 'pruned', 'notices', 'warnings', 'estimated_tokens', 'budget_tokens']);
    assert.deepEqual(out.pruned, []);
    // No role, no template around the files: the whole budget is theirs.
    assert.equal(out.budget_tokens, 2000);
    // file by file: a.ts fits whole, big.ts crosses the line and is cut with a marker
    assert.deepEqual(out.parts.map((p: { key: string; files: string[]; pruned: boolean; truncated: string[] }) => [p.key, p.files, p.pruned, p.truncated]), [
      ['target_file', ['src/t.ts'], false, []],
      ['files', ['src/a.ts', 'src/big.ts'], false, ['src/big.ts']],
    ]);
    // The budget under "chars" is the seeds' 4 characters per token; the estimate reported is o200k's (estimate.ts).
    assert.ok(out.text.length <= 2000 * 4);
    assert.ok(out.estimated_tokens > 0);
  });

  it('--stats reports parts, totals, pruned, skipped and time on stderr; -o writes the file', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n', 'big.bin': Buffer.from([0, 1, 2]) });
    const run = await runCli(['pack', '--stats', '-o', 'packed.md', '--style', 'xml'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(await readFile(join(repo, 'packed.md'), 'utf8'), /^<files>\n<file path="a\.ts">\na\n\n<\/file>\n<\/files>\n$/);
    assert.match(run.stderr, /part\s+files\s+bytes\s+tokens/);
    assert.match(run.stderr, /^files\s+1\s+\d+\s+\d+/m);
    assert.match(run.stderr, /total: 1 files, \d+ bytes, ~\d+ tokens \(chars\); budget: none/);
    assert.match(run.stderr, /pruned: nothing/);
    assert.match(run.stderr, /skipped:\n {2}glob: skipped 1 file \(binary\): big\.bin/);
    assert.match(run.stderr, /time: \d+ ms/);
  });

  it('prints each warning once, with --stats too', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    // A role's template overhead (only a role has one) is more than the budget.
    const run = await runCli(['pack', '--role', 'reviewer', '--stats', '--budget', '500'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr.split('warning: Template overhead').length - 1, 1, run.stderr);
  });

  it("--role packs the role's context spec: targets, imports, sentinels", async () => {
    const repo = await makeRepo({ 'src/main.ts': "import { h } from './helper.js';\n", 'src/helper.ts': 'export const h = 1;\n', 'README.md': '# r\n', 'other.ts': 'o\n' });
    await writeFiles(repo, {
      '.supervisor/roles/packer.yaml': [
        'name: packer',
        'description: test',
        'cli: replay',
        'system_prompt: test',
        'context:',
        '  include: [$TARGET, $TARGET_IMPORTS, README*, git diff --cached]',
        '  token_budget: 20000',
      ].join('\n'),
      'README.md': '# changed\n',
    });
    git(repo, 'add', 'README.md');
    const run = await runCli(['pack', '--role', 'packer', '--target', 'src/main.ts', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(out.parts.map((p: { key: string }) => p.key), ['target_file', 'git_diff', 'imports', 'files']);
    assert.equal(out.budget_tokens, 19000);
    assert.doesNotMatch(out.text, /other\.ts/);
  });

  it('refuses a target outside the repository with PATH_OUTSIDE_REPO and exit code 2', async () => {
    const repo = await makeRepo();
    const run = await runCli(['pack', '--json', '--target', '../../etc/passwd'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.equal(JSON.parse(run.stderr).error.code, 'PATH_OUTSIDE_REPO');
    assert.equal(run.stdout, '');
  });

  it('rejects a bad budget and an unknown packer', async () => {
    const repo = await makeRepo();
    for (const budget of ['0', '1.5', 'lots']) {
      const bad = await runCli(['pack', '--json', '--budget', budget], { cwd: repo });
      assert.equal(bad.code, 2, budget);
      assert.equal(JSON.parse(bad.stderr).error.code, 'BUDGET_INVALID', budget);
    }
    const unknown = await runCli(['pack', '--json', '--packer', 'nope'], { cwd: repo });
    assert.equal(unknown.code, 2);
    assert.equal(JSON.parse(unknown.stderr).error.code, 'PLUGIN_NOT_FOUND');
  });
});
