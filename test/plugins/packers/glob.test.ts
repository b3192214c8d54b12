/** The glob packer: globs, .gitignore (nested), default ignores, binary files, caps, order, styles. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import glob from '../../../plugins/packers/glob.ts';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { packFileContext } from '../../../core/context/pack.ts';
import { git, makeRepo } from '../../helpers/git-repo.ts';
import { makeRole, packerRegistry } from '../../core/context/_helpers.ts';
import { packContextFor, request } from './_context.ts';

const filesOf = async (repo: string, over: Parameters<typeof request>[1] = {}) => {
  const result = await glob.pack(request(repo, over), packContextFor(repo));
  return { files: result.parts[0]?.files ?? [], text: result.parts[0]?.content ?? '', notices: result.notices };
};

describe('glob packer', () => {
  it('honours .gitignore at the root and in nested folders, with negation and folder rules', async () => {
    const repo = await makeRepo({
      '.gitignore': '*.tmp\ngenerated/\nsecret.txt\n',
      'a.ts': 'a\n',
      'debug.tmp': 'x\n',
      'secret.txt': 'x\n',
      'generated/out.ts': 'x\n',
      'pkg/.gitignore': 'local-only.ts\n!keep.tmp\ntmp/\n',
      'pkg/index.ts': 'i\n',
      'pkg/local-only.ts': 'x\n',
      'pkg/keep.tmp': 'kept\n',
      'pkg/tmp/t.ts': 'x\n',
      'pkg/deeper/.gitignore': '*.ts\n!wanted.ts\n',
      'pkg/deeper/wanted.ts': 'w\n',
      'pkg/deeper/unwanted.ts': 'x\n',
      'other/local-only.ts': 'o\n',
    });
    const { files } = await filesOf(repo);
    assert.deepEqual(files, ['.gitignore', 'a.ts', 'other/local-only.ts', 'pkg/.gitignore', 'pkg/deeper/.gitignore', 'pkg/deeper/wanted.ts', 'pkg/index.ts', 'pkg/keep.tmp']);
    // The same set git itself tracked with `git add -A`.
    assert.deepEqual(files, git(repo, 'ls-files', '-z').split('\0').filter(Boolean).sort());
  });

  it('applies .gitignore rules of parent folders when the include starts deeper', async () => {
    const repo = await makeRepo({ '.gitignore': 'ignored/\n', 'src/ok.ts': 'o\n', 'src/ignored/x.ts': 'x\n' });
    assert.deepEqual((await filesOf(repo, { include: ['src/**'] })).files, ['src/ok.ts']);
  });

  it('skips the default ignore list: node_modules, .git, dist, build, lock files, .supervisor, .env', async () => {
    const repo = await makeRepo({
      'src/a.ts': 'a\n',
      'node_modules/x/index.js': 'x\n',
      'sub/node_modules/y.js': 'y\n',
      'dist/out.js': 'x\n',
      'build/out.js': 'x\n',
      'package-lock.json': '{}\n',
      'sub/yarn.lock': 'x\n',
      '.supervisor/runs/r.json': '{}\n',
      '.env': 'KEY=1\n',
      '__pycache__/a.pyc': 'x\n',
    });
    assert.deepEqual((await filesOf(repo)).files, ['src/a.ts']);
    assert.ok((await filesOf(repo, { context: { default_ignores: false } })).files.includes('dist/out.js'));
  });

  it('honours include and exclude globs, sorted by path whatever the file system order', async () => {
    const repo = await makeRepo({ 'src/z.ts': 'z\n', 'src/a.ts': 'a\n', 'src/m/b.ts': 'b\n', 'src/a.test.ts': 't\n', 'docs/x.md': 'x\n' });
    const { files, text } = await filesOf(repo, { include: ['src/**/*.ts'], exclude: ['**/*.test.ts'] });
    assert.deepEqual(files, ['src/a.ts', 'src/m/b.ts', 'src/z.ts']);
    assert.ok(text.startsWith('## Files\n\n### src/a.ts\n\n```\na\n\n```\n'));
  });

  it('skips binary files and files over 1 MiB, with notices naming them', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n', 'img.png': Buffer.from([0x89, 0x50, 0x00, 0x01]), 'big.txt': Buffer.alloc(1024 * 1024 + 1, 'b'), 'edge.txt': Buffer.alloc(1024 * 1024, 'e') });
    const { files, notices } = await filesOf(repo);
    assert.deepEqual(files, ['a.ts', 'edge.txt']);
    assert.ok(notices.some((n) => n.includes('1 file (over the per-file cap of 1 MiB): big.txt')), notices.join('\n'));
    assert.ok(notices.some((n) => n.includes('(binary): img.png')), notices.join('\n'));
  });

  it('stops at 10 MiB in all, the same files every time', async () => {
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 12; i++) files[`f${String(i).padStart(2, '0')}.txt`] = Buffer.alloc(1_000_000, 97 + i);
    const repo = await makeRepo(files);
    const first = await filesOf(repo);
    assert.equal(first.files.length, 10);
    assert.deepEqual(first.files, Object.keys(files).slice(0, 10));
    assert.ok(first.notices.some((n) => n.includes('2 files (past the total cap of 10 MiB): f10.txt, f11.txt')), first.notices.join('\n'));
    assert.deepEqual((await filesOf(repo)).files, first.files);
  });

  it('renders xml when asked, escaping paths in attributes', async () => {
    const repo = await makeRepo({ 'a&"b.ts': 'x < y\n' });
    const { text } = await filesOf(repo, { style: 'xml' });
    assert.equal(text, '<files>\n<file path="a&amp;&quot;b.ts">\nx < y\n\n</file>\n</files>');
  });

  it('uses a longer fence when a file holds a fence of its own', async () => {
    const repo = await makeRepo({ 'README.md': '# t\n```sh\nls\n```\n' });
    assert.match((await filesOf(repo)).text, /````\n# t\n```sh\nls\n```\n\n````/);
  });

  it('never opens FIFOs (they would block), whether globbed or named', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    execFileSync('mkfifo', [join(repo, 'pipe.ts')]);
    assert.deepEqual((await filesOf(repo)).files, ['a.ts']);
    const named = await filesOf(repo, { include: ['pipe.ts'] });
    assert.deepEqual(named.files, []);
    const packed = await packFileContext({ role: makeRole(), repoRoot: repo, targets: ['pipe.ts'], registry: packerRegistry() });
    assert.match(packed.text, /### pipe\.ts\n\n\[Could not read file\]/);
  });

  it('packs nothing, quietly, for an empty include list', async () => {
    const repo = await makeRepo({ 'a.ts': 'a\n' });
    const result = await glob.pack(request(repo, { include: [] }), packContextFor(repo));
    assert.deepEqual(result, { parts: [], notices: [] });
  });
});
