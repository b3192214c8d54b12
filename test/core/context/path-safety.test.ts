/**
 * Packing never reads outside the repository: every escape attempt — absolute paths and
 * patterns, `..` (also hidden in braces), symlinks to /etc as target, as always_include, in a
 * glob, through a symlinked folder — is refused with PATH_OUTSIDE_REPO or skipped with a
 * notice, and nothing from outside ever lands in the text. Odd names do not crash.
 */
import assert from 'node:assert/strict';
import { chmod, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { packFileContext } from '../../../core/context/pack.ts';
import { definePlugin } from '../../../core/plugin-api/index.ts';
import { checkPattern, createPathGuard, normaliseChecked, normaliseRelativePath } from '../../../core/context/path-safety.ts';
import { makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { makeRole, packerRegistry } from './_helpers.ts';

const registry = packerRegistry();
const SECRET = 'TOP-SECRET-OUTSIDE';

async function repoWithLinks(): Promise<{ repo: string; outside: string }> {
  const outside = await tempDir('sv-outside-');
  await writeFiles(outside, { 'secret.txt': `${SECRET}\n`, 'dir/inner.txt': `${SECRET}\n` });
  const repo = await makeRepo({ 'src/a.ts': 'a\n' });
  await symlink('/etc', join(repo, 'etc-link'));
  await symlink(join(outside, 'secret.txt'), join(repo, 'src/secret-link.txt'));
  await symlink(join(outside, 'dir'), join(repo, 'out-dir'));
  await symlink('../src/a.ts', join(repo, 'src/inside-link.ts')).catch(() => {});
  return { repo, outside };
}

describe('path checks', () => {
  it('refuses absolute paths and .. escapes lexically', () => {
    for (const bad of ['/etc/passwd', '../x', 'src/../../x', 'C:\\Windows\\x', '~/secrets', '..']) {
      assert.throws(() => normaliseRelativePath(bad), { code: 'PATH_OUTSIDE_REPO' }, bad);
    }
    assert.equal(normaliseRelativePath('./src//a/../b.ts'), 'src/b.ts');
  });

  it('takes "~notes.md" and "a:b.ts" as the ordinary names they are on POSIX; "~" alone is home', { skip: process.platform === 'win32' }, () => {
    assert.equal(normaliseRelativePath('~notes.md'), '~notes.md');
    assert.equal(normaliseRelativePath('docs/a:b.ts'), 'docs/a:b.ts');
    assert.equal(normaliseRelativePath('a:b.ts'), 'a:b.ts');
    assert.equal(checkPattern('~*.md'), '~*.md');
    assert.throws(() => normaliseRelativePath('~'), { code: 'PATH_OUTSIDE_REPO' });
  });

  it('gives what the full checks give for every path, normal ones returned as they are', () => {
    const outcome = (normalise: (path: string) => string, path: string) => {
      try {
        return normalise(path);
      } catch (error) {
        return `throws ${(error as { code?: string }).code}`;
      }
    };
    const pieces = ['a', 'b.ts', '.', '..', '...', '.git', '~', '~x', ' ', '\u3000', '', 'C:', 'c:x', 'ab:c', 'x y', '\\', 'a\\b', '\0', '\n'];
    const paths = new Set<string>(pieces);
    for (const a of pieces) for (const b of pieces) for (const sep of ['/', '//']) paths.add(`${a}${sep}${b}`).add(`/${a}${sep}${b}`).add(`${a}${sep}${b}/`);
    for (const a of pieces) for (const b of pieces) for (const c of pieces) paths.add(`${a}/${b}/${c}`);
    let returnedAsIs = 0;
    for (const path of paths) {
      assert.equal(outcome(normaliseRelativePath, path), outcome(normaliseChecked, path), JSON.stringify(path));
      if (outcome(normaliseRelativePath, path) === path) returnedAsIs++;
    }
    assert.ok(returnedAsIs > 1000, `${returnedAsIs} paths already normal`);
  });

  it('refuses NUL bytes and empty names with PATH_INVALID', () => {
    assert.throws(() => normaliseRelativePath('a\0b'), { code: 'PATH_INVALID' });
    assert.throws(() => normaliseRelativePath(''), { code: 'PATH_INVALID' });
    assert.throws(() => checkPattern('src/*\0'), { code: 'PATH_INVALID' });
  });

  it('refuses patterns that are absolute or hold .. anywhere, also in braces and negations', () => {
    for (const bad of ['/etc/*', '../**', 'src/../../*', '{..,src}/*', 'src/{a,..}/x', '!../x', '@(..)/x']) {
      assert.throws(() => checkPattern(bad), { code: 'PATH_OUTSIDE_REPO' }, bad);
    }
    for (const good of ['src/**/*.ts', '!dist/**', '**/..foo', 'a..b/*']) assert.equal(checkPattern(good), good);
  });

  it('resolves symlinks and refuses those that lead outside, even to missing files beneath them', async () => {
    const { repo } = await repoWithLinks();
    const guard = createPathGuard(repo);
    await assert.rejects(guard.resolve('etc-link/passwd'), { code: 'PATH_OUTSIDE_REPO' });
    await assert.rejects(guard.resolve('etc-link/no-such-file'), { code: 'PATH_OUTSIDE_REPO' });
    await assert.rejects(guard.resolve('src/secret-link.txt'), { code: 'PATH_OUTSIDE_REPO' });
    assert.ok((await guard.resolve('src/inside-link.ts')).endsWith(join('src', 'a.ts')));
    assert.ok((await guard.resolve('src/missing.ts')).endsWith(join('src', 'missing.ts')));
  });
});

describe('checking the files a packer reports', () => {
  it('names those that lead outside: absolute, .., through a linked folder, a linked file', async () => {
    const { repo, outside } = await repoWithLinks();
    const files = ['src/a.ts', 'src/inside-link.ts', 'src/missing.ts', 'out-dir/inner.txt', 'src/secret-link.txt', 'etc-link/passwd', join(outside, 'secret.txt'), '../x', './src//a.ts'];
    assert.deepEqual(await createPathGuard(repo).outside(files), ['out-dir/inner.txt', 'src/secret-link.txt', 'etc-link/passwd', join(outside, 'secret.txt'), '../x']);
  });
});

describe('packing refuses to leave the repository', () => {
  const pack = (repo: string, context: Record<string, unknown>, targets: string[] = []) =>
    packFileContext({ role: makeRole(context), repoRoot: repo, targets, registry });

  it('refuses targets outside the repository before reading anything', async () => {
    const { repo, outside } = await repoWithLinks();
    for (const target of ['/etc/passwd', join(outside, 'secret.txt'), '../secret.txt', 'src/../../x', 'etc-link/passwd', 'src/secret-link.txt']) {
      await assert.rejects(pack(repo, {}, [target]), { code: 'PATH_OUTSIDE_REPO' }, target);
    }
  });

  it('refuses include, exclude and always_include patterns that escape', async () => {
    const { repo } = await repoWithLinks();
    await assert.rejects(pack(repo, { include: ['/etc/*'] }), { code: 'PATH_OUTSIDE_REPO' });
    await assert.rejects(pack(repo, { include: ['../**'] }), { code: 'PATH_OUTSIDE_REPO' });
    await assert.rejects(pack(repo, { exclude: ['/tmp/**'] }), { code: 'PATH_OUTSIDE_REPO' });
    await assert.rejects(pack(repo, { always_include: ['/etc/passwd'] }), { code: 'PATH_OUTSIDE_REPO' });
    await assert.rejects(pack(repo, { always_include: ['etc-link/passwd'] }), { code: 'PATH_OUTSIDE_REPO' });
    await assert.rejects(pack(repo, { always_include: ['src/secret-link.txt'] }), { code: 'PATH_OUTSIDE_REPO' });
  });

  it('globs never follow symlinks out: not with **, not through a linked folder, not in always_include', async () => {
    const { repo } = await repoWithLinks();
    const notices: string[] = [];
    const packed = await packFileContext({
      role: makeRole({ include: ['**/*', 'etc-link/passwd', 'etc-link/hostname', 'out-dir/inner.txt', 'src/secret-link.txt'], always_include: ['src/*', 'out-dir/*'] }),
      repoRoot: repo,
      targets: [],
      registry,
      notice: (m) => notices.push(m),
    });
    assert.doesNotMatch(packed.text, new RegExp(SECRET));
    assert.doesNotMatch(packed.text, /root:x:0:0/);
    assert.match(packed.text, /### src\/a\.ts/);
    assert.ok(notices.some((n) => n.startsWith('always_include: skipped out-dir/inner.txt')), notices.join('\n'));

    // A lone static pattern through a linked folder comes back from the glob: the read is refused.
    const direct: string[] = [];
    const only = await packFileContext({ role: makeRole({ include: ['etc-link/passwd'] }), repoRoot: repo, targets: [], registry, notice: (m) => direct.push(m) });
    assert.equal(only.text, '');
    assert.ok(direct.some((n) => /symlinks leading outside/.test(n) && n.includes('etc-link/passwd')), direct.join('\n'));
  });

  it('drops a packer part that holds a file leading outside, with a warning naming it', async () => {
    const { repo, outside } = await repoWithLinks();
    // A packer that follows symlinks, as a tool such as repomix does.
    const follower = definePlugin({
      kind: 'packer',
      name: 'follower',
      pack: async () => ({
        parts: [
          { key: 'files', content: `### out-dir/inner.txt\n\n${SECRET}\n`, files: ['out-dir/inner.txt'] },
          { key: 'related', content: '### src/a.ts\n\na\n', files: ['src/a.ts'] },
          { key: 'tree', content: `### ${join(outside, 'secret.txt')}\n\n${SECRET}\n`, files: [join(outside, 'secret.txt')] },
        ],
        notices: [],
      }),
    });
    const packed = await packFileContext({ role: makeRole({ include: ['**/*'], packers: ['follower'] }), repoRoot: repo, targets: [], registry: packerRegistry(follower) });
    assert.doesNotMatch(packed.text, new RegExp(SECRET));
    assert.deepEqual(packed.parts.map((p) => p.key), ['related']);
    assert.ok(packed.warnings.some((w) => w.startsWith('follower: dropped part "files"') && w.includes('out-dir/inner.txt')), packed.warnings.join('\n'));
    assert.ok(packed.warnings.some((w) => w.startsWith('follower: dropped part "tree"') && w.includes('secret.txt')), packed.warnings.join('\n'));
  });

  it('falls back to glob when repomix packs a file through a symlinked folder that leads outside', async () => {
    const { repo } = await repoWithLinks();
    // A stand-in for repomix, which follows symlinked folders: it packs out-dir/inner.txt.
    const bin = await tempDir('sv-fakebin-');
    await writeFiles(bin, {
      repomix: [
        '#!/bin/sh',
        'while [ "$1" != "--output" ]; do shift; done',
        `printf '# Files\n\n## File: out-dir/inner.txt\n\x60\x60\x60\n${SECRET}\n\x60\x60\x60\n\n## File: src/a.ts\n\x60\x60\x60\na\n\x60\x60\x60\n' > "$2"`,
      ].join('\n'),
    });
    await chmod(join(bin, 'repomix'), 0o755);
    const packed = await packFileContext({
      role: makeRole({ include: ['out-dir/inner.txt', 'src/**'], packers: ['repomix'] }),
      repoRoot: repo,
      targets: [],
      registry,
      env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` },
    });
    assert.doesNotMatch(packed.text, new RegExp(SECRET));
    assert.deepEqual(packed.parts.find((p) => p.key === 'files')?.files, ['src/a.ts']);
    assert.ok(packed.warnings.some((w) => /^repomix: refused its output: out-dir\/inner\.txt leads outside the repository.*packed with glob instead$/.test(w)), packed.warnings.join('\n'));
  });

  it('does not crash on odd file names', async () => {
    const repo = await makeRepo({ 'odd name (1).ts': 'paren\n', 'brack[et].ts': 'bracket\n', 'new\nline.ts': 'nl\n', 'ünï.ts': 'uni\n', '-dash.ts': 'dash\n', 'star*.ts': 'star\n' });
    const packed = await packFileContext({ role: makeRole({ include: ['**/*'] }), repoRoot: repo, targets: ['odd name (1).ts', 'brack[et].ts', 'star*.ts'], registry });
    for (const text of ['paren', 'bracket', 'nl', 'uni', 'dash', 'star']) assert.match(packed.text, new RegExp(`\n${text}\n`), text);
    assert.equal(packed.text.split('### brack[et].ts').length - 1, 1);
    assert.equal(packed.text.split('### star*.ts').length - 1, 1);
    await assert.rejects(packFileContext({ role: makeRole(), repoRoot: repo, targets: ['bad\0name'], registry }), { code: 'PATH_INVALID' });
  });
});
