import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { boundGit, locateWorktree, readBoundGuardAhead } from '../../../core/git/bound-git.ts';
import { driverGuardArgs, git, gitSafetyArgs } from '../../../core/git/git.ts';
import { countingGit, git as shell, makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A repository whose config names a filter, a merge driver, a textconv and an external diff that each leave a marker file. */
async function armedRepo(): Promise<{ repo: string; markers: string }> {
  const markers = await tempDir('sv-markers-');
  const repo = await makeRepo({ '.gitattributes': '*.txt filter=evil diff=evil merge=evil\n', 'a.txt': 'a\n' });
  made.push(markers, repo);
  const mark = (name: string, tail: string) => `touch ${join(markers, name)}; ${tail}`;
  shell(repo, 'config', 'filter.evil.smudge', mark('smudge', 'cat'));
  shell(repo, 'config', 'filter.evil.clean', mark('clean', 'cat'));
  shell(repo, 'config', 'filter.evil.required', 'true');
  shell(repo, 'config', 'merge.evil.driver', mark('merge', 'true'));
  shell(repo, 'config', 'diff.evil.textconv', mark('textconv', 'cat'));
  shell(repo, 'config', 'core.fsmonitor', mark('fsmonitor', 'true'));
  return { repo, markers };
}

/** A linked worktree of `repo` beside it, located. */
async function linkedWorktree(repo: string, name: string) {
  const path = join(repo, '..', `${repo.split('/').pop()}-${name}`);
  made.push(path);
  shell(repo, '-c', 'core.fsmonitor=false', 'worktree', 'add', '-q', '--detach', path);
  return { path, worktree: await locateWorktree(repo, path) };
}

/** A linked worktree of an armed repository whose filter is unset (its merge driver, textconv and fsmonitor stay). */
async function disarmedWorktree(name: string) {
  const { repo, markers } = await armedRepo();
  for (const key of ['filter.evil.smudge', 'filter.evil.clean', 'filter.evil.required']) shell(repo, 'config', '--unset', key);
  return { repo, markers, ...(await linkedWorktree(repo, name)) };
}

/** The same, its admin folder allowed a config of its own (extensions.worktreeConfig). */
async function worktreeWithOwnConfig(name: string) {
  const made = await disarmedWorktree(name);
  shell(made.repo, 'config', 'extensions.worktreeConfig', 'true');
  return made;
}

/** How many driver guards a counting git read. */
const guardReadsOf = (calls: () => Promise<string[]>) => async () => (await calls()).filter((call) => call.includes(' config --null --name-only --get-regexp ')).length;

describe("supervisor's git runs no command the repository's config names", () => {
  it('switches off every filter and merge driver by name (git has no wildcard), whatever the case or dots in the name', () => {
    assert.deepEqual(driverGuardArgs('filter.lfs.smudge\0filter.lfs.clean\0merge.My.Driver.driver\0merge.x.name\0diff.y.textconv\0'), [
      '-c', 'filter.lfs.clean=', '-c', 'filter.lfs.smudge=', '-c', 'filter.lfs.process=', '-c', 'filter.lfs.required=false',
      '-c', 'merge.My.Driver.driver=false',
    ]);
  });

  it('checkout, add, status, merge-tree and the packer\'s diff run no filter, merge driver, textconv or fsmonitor; a custom-merged file conflicts', async () => {
    const { repo, markers } = await armedRepo();
    rmSync(join(repo, 'a.txt'));
    assert.ok((await git(repo, ['checkout', '--', 'a.txt'])).ok);
    await writeFiles(repo, { 'a.txt': 'changed\n' });
    assert.ok((await git(repo, ['add', '-A'])).ok);
    assert.ok((await git(repo, ['status', '--porcelain'])).ok);
    shell(repo, '-c', 'filter.evil.clean=cat', '-c', 'filter.evil.smudge=cat', '-c', 'core.fsmonitor=false', 'commit', '-q', '-m', 'ours');
    shell(repo, '-c', 'filter.evil.clean=cat', '-c', 'filter.evil.smudge=cat', '-c', 'core.fsmonitor=false', 'checkout', '-q', '-b', 'theirs', 'HEAD~1');
    await writeFiles(repo, { 'a.txt': 'theirs\n' });
    shell(repo, '-c', 'filter.evil.clean=cat', '-c', 'core.fsmonitor=false', 'commit', '-q', '-am', 'theirs');
    const merged = await git(repo, ['merge-tree', '--write-tree', '--name-only', '--no-messages', 'main', 'theirs']);
    assert.equal(merged.code, 1, 'the file with the custom merge driver conflicts');
    const packer = shell(repo, ...(await gitSafetyArgs(repo)), 'diff', '--no-ext-diff', '--no-textconv', 'main', 'theirs');
    assert.match(packer, /theirs/);
    shell(repo, ...(await gitSafetyArgs(repo)), 'status', '--porcelain');
    assert.deepEqual(existsSync(markers) ? readdir(markers) : [], [], 'no marker was written');
  });

  it("bound git reads the worktree's own config (config.worktree, which a sandboxed CLI can write) and switches its filters off too", async () => {
    const { markers, path, worktree } = await worktreeWithOwnConfig('wt');
    shell(path, 'config', '--worktree', 'filter.evil.smudge', `touch ${join(markers, 'wt-smudge')}; cat`);
    shell(path, 'config', '--worktree', 'filter.evil.clean', `touch ${join(markers, 'wt-clean')}; cat`);
    const bound = boundGit(worktree);
    rmSync(join(path, 'a.txt'));
    await bound.runOrThrow(['checkout', '--', 'a.txt']);
    await writeFiles(path, { 'a.txt': 'edited\n' });
    await bound.runOrThrow(['add', '-A']);
    assert.deepEqual(readdir(markers), []);
  });

  it('a filter added to config.worktree after a bound git read its guard is switched off by the next bound git (the guard is kept per config state)', async () => {
    const { markers, path, worktree } = await worktreeWithOwnConfig('wt2');
    await boundGit(worktree).runOrThrow(['status', '--porcelain']);
    // What a sandboxed CLI can do between two of our commands: name a filter in its admin folder's config.
    shell(path, 'config', '--worktree', 'filter.late.smudge', `touch ${join(markers, 'late-smudge')}; cat`);
    await writeFiles(path, { '.gitattributes': '*.txt filter=late\n' });
    rmSync(join(path, 'a.txt'));
    await boundGit(worktree).runOrThrow(['checkout', '--', 'a.txt']);
    // An include makes the config's state unknowable from its own files: read every time.
    const included = join(path, 'included.cfg');
    await writeFiles(path, { 'included.cfg': '' });
    shell(path, 'config', '--worktree', 'include.path', included);
    await boundGit(worktree).runOrThrow(['status', '--porcelain']);
    await writeFiles(path, { 'included.cfg': `[filter "inc"]\n\tsmudge = touch ${join(markers, 'inc-smudge')}; cat\n`, '.gitattributes': '*.txt filter=inc\n' });
    rmSync(join(path, 'a.txt'));
    await boundGit(worktree).runOrThrow(['checkout', '--', 'a.txt']);
    assert.deepEqual(readdir(markers), []);
  });

  it('a guard read ahead serves the next bound git (no second `git config` while no config file changed); a filter a CLI adds after it is still switched off', async () => {
    const { markers, path, worktree } = await worktreeWithOwnConfig('wt3');
    const { env, calls } = await countingGit();
    const guardReads = guardReadsOf(calls);
    readBoundGuardAhead(worktree, env);
    await boundGit(worktree, env).runOrThrow(['status', '--porcelain']);
    // Read ahead, or not at all: the checkout's guard serves a worktree that reads the same config files.
    const read = await guardReads();
    assert.ok(read <= 1, `${read} guard reads`);
    // What a CLI can do once the guard was read ahead: name a filter in its admin folder's config.
    shell(path, 'config', '--worktree', 'filter.ahead.smudge', `touch ${join(markers, 'ahead-smudge')}; cat`);
    await writeFiles(path, { '.gitattributes': '*.txt filter=ahead\n' });
    rmSync(join(path, 'a.txt'));
    await boundGit(worktree, env).runOrThrow(['checkout', '--', 'a.txt']);
    assert.equal(await guardReads(), read + 1, 'the changed config is read again');
    assert.deepEqual(readdir(markers), []);
  });

  it("a worktree with no config of its own takes the checkout's guard (no `git config` for it); the checkout's own config.worktree keeps them apart", async () => {
    const { repo, markers, worktree } = await disarmedWorktree('shared');
    const { env, calls } = await countingGit();
    const guardReads = guardReadsOf(calls);
    assert.ok((await git(repo, ['status', '--porcelain'], env)).ok);
    const read = await guardReads();
    assert.ok(read <= 1, 'once for the checkout (or not at all: read when the worktree was located)');
    await boundGit(worktree, env).runOrThrow(['status', '--porcelain']);
    assert.equal(await guardReads(), read, 'the worktree reads the files the checkout reads');
    // The main checkout's own per-worktree config names a filter: the worktree does not read that file, the checkout does.
    shell(repo, 'config', 'extensions.worktreeConfig', 'true');
    const { worktree: second } = await linkedWorktree(repo, 'shared2');
    shell(repo, 'config', '--worktree', 'filter.main.smudge', `touch ${join(markers, 'main-smudge')}; cat`);
    await boundGit(second, env).runOrThrow(['status', '--porcelain']);
    await writeFiles(repo, { '.gitattributes': '*.txt filter=main\n' });
    rmSync(join(repo, 'a.txt'));
    assert.ok((await git(repo, ['checkout', '--', 'a.txt'], env)).ok);
    assert.deepEqual(readdir(markers), [], "the checkout's filter is switched off though the worktree's guard was read first");
  });

  it("a filter that appears in a file the checkout's config includes, or in the global config, after a git read the guard is switched off by the next git", async () => {
    const { repo, markers } = await armedRepo();
    for (const key of ['filter.evil.smudge', 'filter.evil.clean', 'filter.evil.required']) shell(repo, 'config', '--unset', key);
    const home = await tempDir('sv-home-');
    made.push(home);
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const included = join(home, 'included.cfg');
    await writeFiles(home, { 'included.cfg': '', '.gitconfig': '' });
    shell(repo, 'config', 'include.path', included);
    assert.ok((await git(repo, ['status', '--porcelain'], env)).ok);
    // The included file changes, the checkout's own config does not.
    await writeFiles(home, { 'included.cfg': `[filter "inc"]\n\tsmudge = touch ${join(markers, 'inc-smudge')}; cat\n` });
    await writeFiles(repo, { '.gitattributes': '*.txt filter=inc\n' });
    rmSync(join(repo, 'a.txt'));
    assert.ok((await git(repo, ['checkout', '--', 'a.txt'], env)).ok);
    // The global config changes.
    await writeFiles(home, { '.gitconfig': `[filter "glob"]\n\tsmudge = touch ${join(markers, 'global-smudge')}; cat\n` });
    await writeFiles(repo, { '.gitattributes': '*.txt filter=glob\n' });
    rmSync(join(repo, 'a.txt'));
    assert.ok((await git(repo, ['checkout', '--', 'a.txt'], env)).ok);
    assert.deepEqual(readdir(markers), []);
  });

  it("a bound git whose admin folder's commondir a CLI pointed at a repository of its own runs nothing there, though its guard was read before", async () => {
    const { markers, path, worktree } = await disarmedWorktree('wt4');
    await boundGit(worktree).runOrThrow(['status', '--porcelain']);
    // Its own repository, with a filter, named as the common dir.
    const own = join(path, 'own.git');
    shell(path, 'init', '-q', '--bare', own);
    shell(own, 'config', 'filter.mine.clean', `touch ${join(markers, 'commondir-clean')}; cat`);
    await writeFiles(path, { '.gitattributes': '*.txt filter=mine\n', 'b.txt': 'b\n' });
    writeFileSync(join(worktree.gitDir, 'commondir'), own);
    const status = await boundGit(worktree).run(['add', '-A']);
    assert.equal(status.ok, false);
    assert.match(status.stderr, /no longer belongs to the repository/);
    assert.deepEqual(readdir(markers), []);
  });

  it('a filter whose name holds "=" (which -c cannot switch off) makes git refuse to run, not run the filter', async () => {
    const { repo, markers } = await armedRepo();
    for (const key of ['filter.evil.smudge', 'filter.evil.clean', 'filter.evil.required']) shell(repo, 'config', '--unset', key);
    shell(repo, 'config', 'filter.a=b.clean', `touch ${join(markers, 'eq-clean')}; cat`);
    await writeFiles(repo, { '.gitattributes': '*.txt filter=a=b\n', 'c.txt': 'c\n' });
    const added = await git(repo, ['add', '-A']);
    assert.equal(added.ok, false);
    assert.match(added.stderr, /holds "="/);
    assert.deepEqual(readdir(markers), []);
  });
});

const readdir = (dir: string) => readdirSync(dir);
