/**
 * Seed 000 Task 4's acceptance criteria, on real temporary git repositories: estimation,
 * fitting the budget, lower priority dropped first, the truncation notice, target files,
 * always_include and system_prompt / task never pruned; plus sentinels, $TARGET de-duplication
 * and extra sections.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MARKERS, TEMPLATE_OVERHEAD_CHARS } from '../../../core/files/constants.ts';
import { packContext, packFileContext } from '../../../core/context/pack.ts';
import { estimateTokens, loadTokenizer } from '../../../core/context/tokens.ts';
import { definePlugin } from '../../../core/plugin-api/index.ts';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';
import { chars, makeRole, packerRegistry } from './_helpers.ts';

const registry = packerRegistry();
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('packFileContext (template flow)', () => {
  it('reserves the template overhead and fits the file context into what is left', async () => {
    const repo = await makeRepo({ 'src/a.ts': chars(8000, 'a'), 'src/b.ts': chars(8000, 'b'), 'src/t.ts': 'export const t = 1;\n' });
    const role = makeRole({ include: ['src/**'], token_budget: 3000 });
    const packed = await packFileContext({ role, repoRoot: repo, targets: ['src/t.ts'], registry });
    assert.equal(packed.budgetTokens, 3000 - TEMPLATE_OVERHEAD_CHARS / 4);
    assert.ok(packed.text.length <= packed.budgetTokens * 4, `${packed.text.length} chars over ${packed.budgetTokens * 4}`);
    assert.equal(packed.estimatedTokens, estimateTokens(packed.text));
    assert.deepEqual(packed.pruned, []);
    assert.match(packed.text, /## Target Files\n\n### src\/t\.ts\n\n```\nexport const t = 1;\n\n```\n/);
    // a.ts crosses the line: its head is kept, cut with a marker; b.ts is left out
    assert.deepEqual(packed.parts.map((p) => [p.key, p.pruned, p.truncated, p.leftOut]), [['target_file', false, [], []], ['files', false, ['src/a.ts'], ['src/b.ts']]]);
    assert.match(packed.text, /### src\/a\.ts\n\n```\na+\n```\n\[Truncated to fit the token budget: kept 1 of 1 lines of src\/a\.ts\]\n$/);
    assert.ok(packed.notices.some((n) => n.startsWith('budget: left out 1 file of files (src/b.ts); cut src/a.ts with a marker')), packed.notices.join('\n'));
  });

  it('keeps every part when the budget allows, files sorted and each packed once ($TARGET skipped)', async () => {
    const repo = await makeRepo({ 'src/b.ts': 'B\n', 'src/a.ts': 'A\n', 'src/t.ts': 'T\n' });
    const role = makeRole({ include: ['$TARGET', 'src/**'], token_budget: 20000 });
    const packed = await packFileContext({ role, repoRoot: repo, targets: ['src/t.ts'], registry });
    assert.deepEqual(packed.pruned, []);
    assert.equal(count(packed.text, '### src/t.ts'), 1);
    assert.ok(packed.text.indexOf('### src/a.ts') < packed.text.indexOf('### src/b.ts'));
    assert.deepEqual(packed.parts.find((p) => p.key === 'files')?.files, ['src/a.ts', 'src/b.ts']);
  });

  it('drops lower priority parts first: files before git_diff before target_file', async () => {
    const repo = await makeRepo({ 'src/t.ts': chars(2000, 't'), 'src/other.ts': chars(6000, 'o'), 'lib/x.ts': 'x\n' });
    await writeFiles(repo, { 'lib/x.ts': `${chars(3000, 'd')}\n` });
    git(repo, 'add', 'lib/x.ts');
    const make = (budget: number) => makeRole({ include: ['src/**', 'git diff --cached'], token_budget: budget });

    const loose = await packFileContext({ role: make(1000 + 1400), repoRoot: repo, targets: ['src/t.ts'], registry });
    assert.deepEqual(loose.pruned, []);
    assert.match(loose.text, /## Git Diff \(Staged\)\n\n```diff\ndiff --git a\/lib\/x\.ts b\/lib\/x\.ts/);
    assert.deepEqual(loose.parts.find((p) => p.key === 'files')?.truncated, ['src/other.ts']);

    const tight = await packFileContext({ role: make(1000 + 600), repoRoot: repo, targets: ['src/t.ts'], registry });
    assert.deepEqual(tight.pruned, ['files']);
    assert.match(tight.text, /^## Target Files/);
    // the diff crosses the line: its head is kept with a marker
    assert.deepEqual(tight.parts.find((p) => p.key === 'git_diff')?.truncated, ['git_diff']);
    assert.match(tight.text, /\[Truncated to fit the token budget: kept \d+ of \d+ lines of git_diff\]$/);

    const tiny = await packFileContext({ role: make(1000 + 10), repoRoot: repo, targets: ['src/t.ts'], registry });
    assert.deepEqual(tiny.pruned, ['files', 'git_diff', 'target_file']);
    assert.equal(tiny.text, '');
  });

  it('says so, and packs nothing, when the template overhead eats the whole budget', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const packed = await packFileContext({ role: makeRole({ include: ['**/*'], token_budget: 1000 }), repoRoot: repo, targets: ['a.ts'], registry });
    assert.equal(packed.text, MARKERS.overheadExceedsBudget);
    assert.equal(packed.warnings.length, 1);
  });

  it('gathers nothing at all when the template overhead eats the whole budget', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const ran: string[] = [];
    const spy = definePlugin({ kind: 'packer', name: 'spy', pack: async () => (ran.push('spy'), { parts: [], notices: [] }) });
    const role = makeRole({ include: ['**/*'], packers: ['spy'], git_diff: true, token_budget: 1000 });
    const packed = await packFileContext({ role, repoRoot: repo, targets: ['a.ts'], registry: packerRegistry(spy) });
    assert.deepEqual(ran, []);
    assert.deepEqual(packed.parts, []);
    assert.equal(packed.estimatedTokens, estimateTokens(MARKERS.overheadExceedsBudget));
  });

  it('never prunes always_include, even alone over budget, and warns', async () => {
    const repo = await makeRepo({ 'docs/RULES.md': chars(10000, 'r'), 'src/t.ts': 't\n', 'src/x.ts': chars(4000) });
    const role = makeRole({ include: ['src/**'], always_include: ['docs/RULES.md'], token_budget: 2000 });
    const packed = await packFileContext({ role, repoRoot: repo, targets: ['src/t.ts'], registry });
    assert.match(packed.text, /^## Required Context\n\n### docs\/RULES\.md\n\n```\nr{10000}\n```/);
    assert.deepEqual(packed.pruned, ['files', 'target_file']);
    assert.ok(packed.warnings.some((w) => w.includes('required content only')));
    assert.equal(count(packed.text, '### docs/RULES.md'), 1);

    // A target that is also always_include is packed once, protected.
    const both = await packFileContext({ role: makeRole({ always_include: ['docs/RULES.md'] }), repoRoot: repo, targets: ['docs/RULES.md', 'src/t.ts'], registry });
    assert.equal(count(both.text, '### docs/RULES.md'), 1);
    assert.deepEqual(both.parts.map((p) => [p.key, p.files]), [['always_include', ['docs/RULES.md']], ['target_file', ['src/t.ts']]]);
  });

  it('marks target files that are too large or unreadable instead of packing them', async () => {
    const repo = await makeRepo({ 'big.txt': Buffer.alloc(1024 * 1024 + 1, 'b'), 'ok.ts': 'ok\n' });
    await mkdir(join(repo, 'folder'));
    const packed = await packFileContext({ role: makeRole(), repoRoot: repo, targets: ['ok.ts', 'big.txt', 'missing.ts', 'folder'], registry });
    assert.match(packed.text, /### big\.txt\n\n\[File exceeds size limit\]\n/);
    assert.match(packed.text, /### missing\.ts\n\n\[Could not read file\]\n/);
    assert.match(packed.text, /### folder\n\n\[Could not read file\]\n/);
    assert.match(packed.text, /### ok\.ts\n\n```\nok\n\n```/);
  });

  it('packs the staged diff and $CHANGED_FILES from real git, targets not repeated', async () => {
    const repo = await makeRepo({ 'a.ts': 'one\n', 'b.ts': 'bee\n', 'c.ts': 'sea\n' });
    await writeFiles(repo, { 'a.ts': 'two\n', 'b.ts': 'bumble\n', 'c.ts': 'unstaged change\n' });
    git(repo, 'add', 'a.ts', 'b.ts');
    const role = makeRole({ include: ['git diff --cached', '$CHANGED_FILES', '*.ts'] });
    const packed = await packFileContext({ role, repoRoot: repo, targets: ['a.ts'], registry });
    assert.deepEqual(packed.parts.map((p) => p.key), ['target_file', 'git_diff', 'changed_files', 'files']);
    assert.match(packed.text, /-one\n\+two/);
    assert.doesNotMatch(packed.text, /unstaged change\n```diff|[-+]unstaged/);
    assert.deepEqual(packed.parts.find((p) => p.key === 'changed_files')?.files, ['b.ts']);
    assert.deepEqual(packed.parts.find((p) => p.key === 'files')?.files, ['c.ts']);
    for (const file of ['a.ts', 'b.ts', 'c.ts']) assert.equal(count(packed.text, `### ${file}`), 1, file);
  });

  it('$CHANGED_FILES leaves out always_include files, excluded files and the default ignore list', async () => {
    const repo = await makeRepo({ 'b.ts': 'b\n', 'c.ts': 'c\n' });
    await writeFiles(repo, { 'b.ts': 'bee\n', 'c.ts': 'sea\n', '.env': 'KEY=secret\n', 'a.test.ts': 't\n' });
    git(repo, 'add', '-f', 'b.ts', 'c.ts', '.env', 'a.test.ts');
    const role = makeRole({ include: ['$CHANGED_FILES'], always_include: ['b.ts'], exclude: ['**/*.test.ts'] });
    const packed = await packFileContext({ role, repoRoot: repo, targets: [], registry });
    assert.deepEqual(packed.parts.map((p) => [p.key, p.files]), [['always_include', ['b.ts']], ['changed_files', ['c.ts']]]);
    assert.equal(count(packed.text, '### b.ts'), 1);
    assert.doesNotMatch(packed.text, /secret|a\.test\.ts\n/);
  });

  it('a packer does not repeat what an earlier packer in the list packed', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n', 'b.ts': 'b\n' });
    await writeFiles(repo, { 'b.ts': 'bee\n' });
    git(repo, 'add', 'b.ts');
    const role = makeRole({ include: ['$CHANGED_FILES', '*.ts'], packers: ['git-diff', 'glob'] });
    const packed = await packFileContext({ role, repoRoot: repo, targets: [], registry });
    assert.deepEqual(packed.parts.map((p) => [p.key, p.files]), [['changed_files', ['b.ts']], ['files', ['a.ts']]]);
    assert.equal(count(packed.text, '### b.ts'), 1);
  });

  it('takes changed_files: true and git_diff_unstaged: true without git-diff among the packers', async () => {
    const repo = await makeRepo({ 'a.ts': 'one\n', 'b.ts': 'bee\n' });
    await writeFiles(repo, { 'a.ts': 'two\n', 'b.ts': 'unstaged\n' });
    git(repo, 'add', 'a.ts');
    const packed = await packFileContext({ role: makeRole({ changed_files: true, git_diff_unstaged: true }), repoRoot: repo, targets: [], registry });
    assert.deepEqual(packed.parts.map((p) => [p.key, p.files]), [['git_diff', []], ['changed_files', ['a.ts']]]);
    assert.match(packed.text, /## Git Diff \(Unstaged\)\n\n```diff\n[^]*\+unstaged/);
    assert.doesNotMatch(packed.text, /Git Diff \(Staged\)/);
  });

  it('takes the git_diff flag as well as the sentinel, and adds extra context as titled sections', async () => {
    const repo = await makeRepo({ 'a.ts': 'one\n' });
    await writeFiles(repo, { 'a.ts': 'two\n' });
    git(repo, 'add', 'a.ts');
    const notices: string[] = [];
    const packed = await packFileContext({
      role: makeRole({ git_diff: true, include: ['$NOT_A_THING'] }),
      repoRoot: repo,
      targets: [],
      registry,
      extraContext: { test_output: '1 failing', lint_RESULTS: 'clean' },
      notice: (m) => notices.push(m),
    });
    assert.deepEqual(packed.parts.map((p) => p.key), ['git_diff', 'test_output', 'lint_RESULTS']);
    assert.match(packed.text, /## Test Output\n\n1 failing/);
    assert.match(packed.text, /## Lint Results\n\nclean$/);
    assert.ok(notices.some((n) => n.includes('$NOT_A_THING')));
  });

  it('counts with o200k when asked', async () => {
    await loadTokenizer('o200k'); // no budget: packing itself counts nothing, the reader loads the tokenizer
    const repo = await makeRepo({ 'a.ts': 'const hello = "world";\n' });
    const packed = await packFileContext({ role: makeRole({ include: ['a.ts'] }), repoRoot: repo, targets: [], registry, tokenizer: 'o200k' });
    assert.equal(packed.estimatedTokens, estimateTokens(packed.text, 'o200k'));
    assert.notEqual(packed.estimatedTokens, estimateTokens(packed.text));
  });

  it('with o200k, each part and the total are exact counts of their text', async () => {
    await loadTokenizer('o200k');
    const repo = await makeRepo({ 't.ts': 'export const t = 1;\n', 'a.ts': 'const hello = "world";\n' });
    const packed = await packFileContext({ role: makeRole({ include: ['a.ts'] }), repoRoot: repo, targets: ['t.ts'], registry, tokenizer: 'o200k' });
    assert.equal(packed.parts.length, 2);
    const [target, files] = packed.text.split('\n\n## Files');
    assert.deepEqual(packed.parts.map((p) => p.tokens), [estimateTokens(target!, 'o200k'), estimateTokens(`## Files${files}`, 'o200k')]);
    assert.equal(packed.estimatedTokens, estimateTokens(packed.text, 'o200k'));
  });
});

describe('packContext (legacy flow)', () => {
  it('builds system prompt, task, target files and files, in that order', async () => {
    const repo = await makeRepo({ 'src/t.ts': 'T\n', 'src/u.ts': 'U\n' });
    const packed = await packContext({ role: makeRole({ include: ['src/**'], token_budget: 5000 }), task: 'Do it', repoRoot: repo, targets: ['src/t.ts'], registry });
    assert.deepEqual(packed.parts.map((p) => p.key), ['system_prompt', 'task', 'target_file', 'files']);
    assert.ok(packed.text.startsWith('You are a careful tester.\n\n## Task\n\nDo it\n\n## Target Files'));
    assert.equal(packed.budgetTokens, 5000);
  });

  it('never prunes system_prompt or task; prunes extra context first and adds the truncation notice', async () => {
    const repo = await makeRepo({ 'src/t.ts': chars(3000, 't'), 'src/u.ts': chars(3000, 'u') });
    const role = makeRole({ include: ['src/**'], always_include: ['src/u.ts'], token_budget: 1000 }, { system_prompt: chars(5000, 's') });
    const packed = await packContext({ role, task: 'the task', repoRoot: repo, targets: ['src/t.ts'], registry, extraContext: { test_output: 'x' } });
    assert.deepEqual(packed.pruned, ['test_output', 'target_file']);
    assert.ok(packed.text.startsWith(`${chars(5000, 's')}\n\n## Task\n\nthe task\n\n## Required Context`));
    assert.ok(packed.text.endsWith(MARKERS.protectedExceedsBudget));
    assert.ok(packed.warnings.length > 0);
  });

  it('fits without any notice when the protected parts and some files fit', async () => {
    const repo = await makeRepo({ 'src/t.ts': 't\n', 'src/big.ts': chars(20000) });
    const packed = await packContext({ role: makeRole({ include: ['src/**'], token_budget: 1000 }), task: 'x', repoRoot: repo, targets: ['src/t.ts'], registry });
    assert.deepEqual(packed.pruned, []);
    assert.deepEqual(packed.parts.find((p) => p.key === 'files')?.truncated, ['src/big.ts']);
    assert.ok(packed.text.length <= 4000);
    assert.doesNotMatch(packed.text, /WARNING/);
    assert.match(packed.text, /### src\/t\.ts/);
  });
});
