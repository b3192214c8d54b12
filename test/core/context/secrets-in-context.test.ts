/**
 * Secrets and exclusions across every part packing builds (issue 13, item 5): targets, imports,
 * always_include (with the glob packer's exclusions), the git diff, a third-party packer's
 * output; each held back with a notice naming the file and the rule; the role setting opts out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MARKERS } from '../../../core/files/constants.ts';
import { packFileContext } from '../../../core/context/pack.ts';
import { definePlugin } from '../../../core/plugin-api/index.ts';
import type { RoleContext } from '../../../core/roles/role.ts';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';
import { s01Corpus } from '../../helpers/secret-corpus.ts';
import { makeRole, packerRegistry } from './_helpers.ts';

// Assembled at run time, so no secret scanner ever sees one in this file.
const gh = ['ghp', 'Zq8xW2mK4nR7tY1uI3oP5aS6dF9gH0jL2kX4'].join('_');

const pack = (repo: string, context: RoleContext, over: Partial<Parameters<typeof packFileContext>[0]> = {}) =>
  packFileContext({ role: makeRole(context), repoRoot: repo, targets: [], registry: packerRegistry(), ...over });

describe('secrets in packed context', () => {
  it('holds back a target with a marker, and an import entirely, each with a notice naming file and rule', async () => {
    const repo = await makeRepo({ 'src/a.ts': "import { t } from './token.ts';\n", 'src/token.ts': `export const t = '${gh}';\n`, 'ci.sh': `GITHUB_TOKEN=${gh}\n` });
    const packed = await pack(repo, { include: ['$TARGET_IMPORTS'] }, { targets: ['src/a.ts', 'ci.sh'] });
    assert.ok(!packed.text.includes(gh));
    assert.match(packed.text, new RegExp(`### ci\\.sh\\n\\n${MARKERS.secretLeftOut.replace(/[[\]]/g, '\\$&')}`));
    assert.doesNotMatch(packed.text, /### src\/token\.ts/);
    assert.ok(packed.notices.some((n) => n.startsWith('target: left out ci.sh:') && n.includes('gitleaks/github-pat')), packed.notices.join('\n'));
    assert.ok(packed.notices.some((n) => n.startsWith('imports: left out src/token.ts:')), packed.notices.join('\n'));
  });

  it('always_include ["*"] honours the default ignore list, .gitignore and .git, and holds back secrets', async () => {
    const repo = await makeRepo({ 'README.md': '# r\n', '.gitignore': 'private.txt\n' });
    await writeFiles(repo, { '.env': 'DOTENV=dotenv-text\n', 'private.txt': 'gitignored-text\n', 'top.sh': `GITHUB_TOKEN=${gh}\n` });
    const packed = await pack(repo, { always_include: ['*', '.git/*'] });
    assert.match(packed.text, /### README\.md/);
    for (const leak of [gh, 'dotenv-text', 'gitignored-text', '[core]']) assert.ok(!packed.text.includes(leak), leak);
    assert.ok(packed.notices.some((n) => n.startsWith('always_include: left out top.sh:')), packed.notices.join('\n'));
    // default_ignores: false and gitignore: false lift those exclusions, as they do for glob.
    const lifted = await pack(repo, { always_include: ['*'], default_ignores: false, gitignore: false });
    assert.ok(lifted.text.includes('dotenv-text') && lifted.text.includes('gitignored-text'));
  });

  it("leaves out a staged .env's diff and a staged secret's diff, saying exactly that; the rest of the diff stays", async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n', '.gitignore': 'ignored.txt\n' });
    await writeFiles(repo, { 'a.ts': 'A\n', '.env': 'DOTENV=staged-dotenv\n', 'deploy.sh': `GITHUB_TOKEN=${gh}\n`, 'ignored.txt': 'ignored-text\n' });
    git(repo, 'add', '-f', 'a.ts', '.env', 'deploy.sh', 'ignored.txt');
    const packed = await pack(repo, { include: ['git diff --cached', '$CHANGED_FILES'] });
    assert.match(packed.text, /\+A/);
    for (const leak of [gh, 'staged-dotenv', 'ignored-text']) assert.ok(!packed.text.includes(leak), leak);
    assert.ok(packed.notices.includes('git-diff: left out the diff of 2 files (excluded, gitignored or on the default ignore list): .env, ignored.txt'), packed.notices.join('\n'));
    assert.ok(packed.notices.some((n) => n.startsWith('git-diff: left out the diff of deploy.sh:') && n.includes('gitleaks/github-pat')));
    assert.ok(packed.notices.some((n) => n.startsWith('git-diff: left out deploy.sh:')), 'the changed file too');
  });

  it("drops a third-party packer's part that holds a secret, naming the packer, part and rule", async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const leaky = definePlugin({ kind: 'packer', name: 'leaky', async pack() { return { parts: [{ key: 'related', content: `GITHUB_TOKEN=${gh}`, files: ['a.ts'] }], notices: [] }; } });
    const packed = await pack(repo, { include: ['*.ts'] }, { packers: ['leaky', 'glob'], registry: packerRegistry(leaky) });
    assert.ok(!packed.text.includes(gh));
    assert.match(packed.text, /### a\.ts/);
    assert.ok(packed.warnings.some((w) => w.startsWith('leaky: left out part "related"') && w.includes('gitleaks/github-pat')), packed.warnings.join('\n'));
  });

  it('packs them all with context.secret_scan: false or secretScan: false', async () => {
    const repo = await makeRepo({ 'ci.sh': `GITHUB_TOKEN=${gh}\n` });
    assert.ok((await pack(repo, { include: ['*'], secret_scan: false })).text.includes(gh));
    assert.ok((await pack(repo, { include: ['*'] }, { secretScan: false })).text.includes(gh));
    assert.ok(!(await pack(repo, { include: ['*'] })).text.includes(gh));
  });

  it("holds back a staged GCP key file's diff: the GCP rule reads the file's JSON from the diff's lines", async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const key = JSON.stringify({ type: 'service_account', private_key_id: 'k1', private_key: '-----BEGIN PRIVATE KEY-----\nshort\n-----END PRIVATE KEY-----\n' }, null, 2);
    await writeFiles(repo, { 'sa.json': `${key}\n` });
    git(repo, 'add', 'sa.json');
    const packed = await pack(repo, { include: ['git diff --cached'] });
    assert.ok(!packed.text.includes('service_account'));
    assert.ok(packed.notices.some((n) => n.startsWith('git-diff: left out the diff of sa.json:') && n.includes('supervisor/generic-assignment')), packed.notices.join('\n'));
  });

  it('leaves out every S01 format of issue 27, as a file and as a staged diff, naming the file and the rule', async () => {
    const corpus = s01Corpus();
    const repo = await makeRepo({ 'src/app.ts': 'export const app = 1;\n' });
    await writeFiles(repo, Object.fromEntries(corpus.map((f) => [f.path, f.content])));
    const secrets = corpus.flatMap((f) => f.secrets);
    const files = await pack(repo, { include: ['**/*'] });
    assert.match(files.text, /### src\/app\.ts/);
    for (const file of corpus) {
      for (const secret of file.secrets) assert.ok(!files.text.includes(secret), `${file.path} leaked`);
      assert.ok(files.notices.some((n) => n.includes(`left out ${file.path}:`) && n.includes(file.rule)), `${file.path} (${file.rule}):\n${files.notices.join('\n')}`);
    }
    git(repo, 'add', '-A');
    const diff = await pack(repo, { include: ['git diff --cached'] });
    for (const file of corpus) {
      for (const secret of file.secrets) assert.ok(!diff.text.includes(secret), `the diff of ${file.path} leaked`);
      assert.ok(diff.notices.some((n) => n.startsWith(`git-diff: left out the diff of ${file.path}:`)), `${file.path}:\n${diff.notices.join('\n')}`);
    }
    // The case is real: without the scan, every one of them is packed.
    const unscanned = await pack(repo, { include: ['**/*'] }, { secretScan: false });
    for (const secret of secrets) assert.ok(unscanned.text.includes(secret), secret);
  });
});
