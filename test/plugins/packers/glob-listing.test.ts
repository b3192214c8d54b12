/**
 * The glob packer finds its files through git's list where it can (one `git ls-files`) and by
 * walking the tree otherwise: both must give the same files, so the same pack, byte for byte.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { gitListedFiles } from '../../../core/git/git-files.ts';
import glob, { selectFiles } from '../../../plugins/packers/glob.ts';
import { renderFiles } from '../../../core/plugin-api/index.ts';
import { git, makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { packContextFor, request } from './_context.ts';

/** A repository with what tells a walk and git's list apart, if anything does. */
async function trickyRepo(): Promise<string> {
  const repo = await makeRepo({
    '.gitignore': '*.tmp\ngenerated/\n/rooted.txt\nlogs\n!keep.log\n',
    'a.ts': 'a\n',
    'rooted.txt': 'tracked, then ignored\n',
    'sub/rooted.txt': 'not rooted here\n',
    'pkg/.gitignore': 'local-only.ts\n!keep.tmp\ntmp/\n*.md\n!README.md\n',
    'pkg/index.ts': 'i\n',
    'pkg/keep.tmp': 'kept\n',
    'pkg/README.md': '# r\n',
    'pkg/deeper/.gitignore': '*.ts\n!wanted.ts\n',
    'pkg/deeper/wanted.ts': 'w\n',
    'other/local-only.ts': 'o\n',
    'gone.ts': 'deleted from the work tree\n',
    'space name/ü file.ts': 'unicode\n',
    'node_modules/dep/index.js': 'tracked dependency\n',
    'dist/out.js': 'tracked build output\n',
    'docs/guide.md': '# g\n',
    'package-lock.json': '{}\n',
    'assumed.ts': 'deleted, but git is told to assume it unchanged\n',
  });
  // Tracked files that rules added later match, untracked files on both sides of the rules.
  await writeFiles(repo, {
    '.gitignore': '*.tmp\ngenerated/\n/rooted.txt\nlogs\n!keep.log\nlater.ts\n',
    'later.ts': 'x\n',
    'untracked.ts': 'u\n',
    'debug.tmp': 'x\n',
    'generated/out.ts': 'x\n',
    'pkg/local-only.ts': 'x\n',
    'pkg/notes.md': 'x\n',
    'pkg/tmp/t.ts': 'x\n',
    'pkg/deeper/unwanted.ts': 'x\n',
    'logs/app.txt': 'x\n',
    'keep.log': 'default-ignored name\n',
    '.env': 'KEY=1\n',
    'new/deep/file.ts': 'new folder\n',
    'excluded-by-info.ts': 'x\n',
  });
  git(repo, 'add', '-f', 'later.ts');
  git(repo, 'commit', '-q', '-m', 'later');
  await writeFile(join(repo, '.git', 'info', 'exclude'), 'excluded-by-info.ts\n');
  await rm(join(repo, 'gone.ts'));
  git(repo, 'update-index', '--assume-unchanged', 'assumed.ts');
  await rm(join(repo, 'assumed.ts'));
  await symlink('a.ts', join(repo, 'link.ts'));
  await symlink('pkg', join(repo, 'linked-folder'));
  execFileSync('mkfifo', [join(repo, 'pipe.ts')]);
  return repo;
}

const selections: Array<{ include: string[]; exclude?: string[] }> = [
  { include: ['**/*'] },
  { include: ['**', 'a.ts'] },
  { include: ['**/*.ts'], exclude: ['pkg/**'] },
  { include: ['pkg/**', '*.txt'] },
  { include: ['sub/rooted.txt', 'space name/*'] },
  { include: ['**/*.md', '!docs/**'] },
  { include: ['linked-folder/index.ts', 'linked-folder/deeper/**'] },
];

describe('glob packer: git list and walk', () => {
  it('select the same files, for any include and exclude', async () => {
    const repo = await trickyRepo();
    assert.ok(await gitListedFiles(repo, { defaults: true, env: process.env }), 'git can list this repository');
    for (const { include, exclude = [] } of selections) {
      const r = request(repo, { include, exclude });
      const walked = await selectFiles(r, process.env, 'walk');
      assert.deepEqual(await selectFiles(r, process.env, 'git'), walked, include.join(' '));
    }
    const all = await selectFiles(request(repo), process.env, 'walk');
    assert.deepEqual(all, ['.gitignore', 'a.ts', 'docs/guide.md', 'new/deep/file.ts', 'other/local-only.ts', 'pkg/.gitignore', 'pkg/README.md', 'pkg/deeper/.gitignore', 'pkg/deeper/wanted.ts', 'pkg/index.ts', 'pkg/keep.tmp', 'space name/ü file.ts', 'sub/rooted.txt', 'untracked.ts']);
  });

  it('give the identical pack (the packer lists with git)', async () => {
    const repo = await trickyRepo();
    for (const style of ['markdown', 'xml'] as const) {
      const r = request(repo, { style });
      const packed = await glob.pack(r, packContextFor(repo));
      const ctx = packContextFor(repo);
      const report = await ctx.readFiles(await selectFiles(r, process.env, 'walk'));
      assert.equal(packed.parts[0]!.content, renderFiles(report.files, style, 'Files', 'files'));
      assert.deepEqual(packed.parts[0]!.files, report.files.map((f) => f.path));
    }
  });

  it('also without the default ignore list', async () => {
    const repo = await trickyRepo();
    const r = request(repo, { context: { default_ignores: false } });
    const walked = await selectFiles(r, process.env, 'walk');
    assert.ok(walked.includes('node_modules/dep/index.js'));
    assert.deepEqual(await selectFiles(r, process.env, 'git'), walked);
  });

  it('git lists nothing it cannot vouch for: no repository, a nested repository, a submodule-like folder', async () => {
    const options = { defaults: true, env: process.env };
    const plain = await tempDir();
    await writeFiles(plain, { 'a.ts': 'a\n' });
    assert.equal(await gitListedFiles(plain, options), null);

    const repo = await makeRepo({ 'a.ts': 'a\n' });
    assert.deepEqual(await gitListedFiles(repo, options), ['a.ts']);
    await mkdir(join(repo, 'nested'));
    git(join(repo, 'nested'), 'init', '-q');
    await writeFile(join(repo, 'nested', 'n.ts'), 'n\n');
    assert.equal(await gitListedFiles(repo, options), null);
    // The walk still packs it (it sees a folder with files).
    assert.ok((await selectFiles(request(repo))).includes('nested/n.ts'));

    const replaced = await makeRepo({ 'a.ts': 'a\n', 'b.ts': 'b\n' });
    await rm(join(replaced, 'b.ts'));
    await writeFiles(replaced, { 'b.ts/inner.ts': 'now a folder\n' });
    assert.equal(await gitListedFiles(replaced, options), null);
    assert.deepEqual(await selectFiles(request(replaced)), ['a.ts', 'b.ts/inner.ts']);

    // A folder moved and linked back: its tracked files look unchanged to git, the walk skips the link.
    const moved = await makeRepo({ 'a.ts': 'a\n', 'lib/x.ts': 'x\n' });
    await rename(join(moved, 'lib'), join(moved, 'lib2'));
    await symlink('lib2', join(moved, 'lib'));
    assert.equal(await gitListedFiles(moved, options), null);
    assert.deepEqual(await selectFiles(request(moved)), ['a.ts', 'lib2/x.ts']);
  });

  it('ask git only when a pattern reaches any depth: patterns that name their folders walk those', async () => {
    const repo = await trickyRepo();
    // A git that notes each listing before doing it.
    const bin = await tempDir();
    const log = join(bin, 'calls');
    await writeFile(join(bin, 'git'), `#!/bin/sh\ncase "$*" in *ls-files*) echo ls-files >> '${log}' ;; esac\nexec ${execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()} "$@"\n`);
    await chmod(join(bin, 'git'), 0o755);
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
    const listings = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    const named = request(repo, { include: ['README*', 'pkg/*.ts', 'sub/rooted.txt'] });
    assert.deepEqual(await selectFiles(named, env), await selectFiles(named, process.env, 'git'));
    assert.equal(await listings(), 0, 'no git ls-files for README*, pkg/*.ts and a path');
    await selectFiles(request(repo, { include: ['pkg/**/*.ts'] }), env);
    assert.ok((await listings()) > 0, 'pkg/**/*.ts is listed by git');
  });
});
