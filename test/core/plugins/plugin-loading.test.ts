import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/plugins/', import.meta.url));

async function repoWithPlugins(folder: string): Promise<string> {
  const repo = await makeRepo();
  await cp(join(fixtures, folder), join(repo, '.supervisor', 'plugins'), { recursive: true });
  return repo;
}

interface ListedPlugin {
  kind: string;
  name: string;
  layer: string;
  source: string;
  overrides: string | null;
}

async function listPlugins(cwd: string, extra: string[] = [], homeDir?: string): Promise<ListedPlugin[]> {
  const run = await runCli(['plugins', 'list', '--json', ...extra], { cwd, homeDir });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as ListedPlugin[];
}

describe('plugin loading', () => {
  it('loads a user plugin from every accepted file type and lists it with its source', async () => {
    const repo = await repoWithPlugins('good');
    const listed = await listPlugins(repo);
    const expected = [
      ['adapter', 'ts-adapter', 'ts-adapter.ts'],
      ['packer', 'mts-packer', 'mts-packer.mts'],
      ['parser', 'cts-parser', 'cts-parser.cts'],
      ['parser', 'js-parser', 'js-parser.js'],
      ['packer', 'mjs-packer', 'mjs-packer.mjs'],
      ['adapter', 'cjs-adapter', 'cjs-adapter.cjs'],
    ];
    for (const [kind, name, file] of expected) {
      const entry = listed.find((p) => p.name === name);
      assert.ok(entry, `${name} listed`);
      assert.equal(entry.kind, kind);
      assert.equal(entry.layer, 'repo');
      assert.equal(entry.source, join(repo, '.supervisor', 'plugins', file!));
    }
  });

  it('does not load helper files in subfolders or files starting with "_"', async () => {
    const repo = await repoWithPlugins('good');
    await writeFile(join(repo, '.supervisor', 'plugins', '_shared.mjs'), 'export const x = 1;');
    const listed = await listPlugins(repo);
    assert.equal(listed.filter((p) => p.layer === 'repo').length, 6);
  });

  it('lets a repo plugin override a user plugin and a built-in, and lists the override', async () => {
    const repo = await makeRepo();
    const home = await tempDir('sv-home-');
    const parser = (tag: string) => `export default { kind: 'parser', name: 'fenced-json', description: '${tag}', parse: () => ({}) };`;
    await mkdir(join(home, '.supervisor', 'plugins'), { recursive: true });
    await writeFile(join(home, '.supervisor', 'plugins', 'fenced-json.mjs'), parser('user'));
    await mkdir(join(repo, '.supervisor', 'plugins'), { recursive: true });
    await writeFile(join(repo, '.supervisor', 'plugins', 'fenced-json.mjs'), parser('repo'));
    const listed = await listPlugins(repo, [], home);
    const entry = listed.find((p) => p.kind === 'parser' && p.name === 'fenced-json');
    assert.equal(entry?.layer, 'repo');
    assert.equal(entry?.overrides, join(home, '.supervisor', 'plugins', 'fenced-json.mjs'));

    const human = await runCli(['plugins', 'list'], { cwd: repo, homeDir: home });
    assert.match(human.stdout, /fenced-json .*overrides /);
  });

  it('--plugin overrides the plugin folders; --no-user-plugins loads built-ins only', async () => {
    const repo = await repoWithPlugins('good');
    const extra = join(await tempDir(), 'ts-adapter.mjs');
    await writeFile(extra, `export default { kind: 'adapter', name: 'ts-adapter', bin: 'other', command: () => ({ args: [] }), extract: () => ({ text: null, metrics: {} }) };`);
    const listed = await listPlugins(repo, ['--plugin', extra]);
    const entry = listed.find((p) => p.name === 'ts-adapter');
    assert.equal(entry?.layer, 'cli');
    assert.equal(entry?.overrides, join(repo, '.supervisor', 'plugins', 'ts-adapter.ts'));

    const builtinsOnly = await listPlugins(repo, ['--no-user-plugins']);
    assert.ok(builtinsOnly.every((p) => p.layer === 'builtin'));
  });
});

describe('bad plugins', () => {
  const cases: [string, string, RegExp][] = [
    ['syntax', 'PLUGIN_IMPORT', /broken\.ts/],
    ['throws', 'PLUGIN_IMPORT', /boom\.mjs.*boom at import time/],
    ['shape', 'PLUGIN_SHAPE', /noextract\.ts.*extract/],
    ['kind', 'PLUGIN_UNKNOWN_KIND', /wrongkind\.mjs.*"formatter"/],
    ['duplicate', 'PLUGIN_DUPLICATE', /b\.mjs.*parser "twin".*a\.mjs/],
  ];
  for (const [folder, code, message] of cases) {
    it(`${folder}: fails with ${code}, names the file, exits 2, no stack trace`, async () => {
      const repo = await repoWithPlugins(join('bad', folder));
      const run = await runCli(['plugins', 'list'], { cwd: repo });
      assert.equal(run.code, 2);
      assert.match(run.stderr, new RegExp(`error \\[${code}\\]`));
      assert.match(run.stderr.replaceAll('\n', ' '), message);
      assert.doesNotMatch(run.stderr, /^\s+at /m);

      const json = await runCli(['plugins', 'list', '--json'], { cwd: repo });
      assert.equal(json.code, 2);
      assert.equal(JSON.parse(json.stderr).error.code, code);
    });
  }

  it('shows the stack trace only with --debug', async () => {
    const repo = await repoWithPlugins(join('bad', 'throws'));
    const run = await runCli(['plugins', 'list', '--debug'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^\s+at /m);
  });

  it('a missing --plugin path is a usage error', async () => {
    const repo = await makeRepo();
    const run = await runCli(['plugins', 'list', '--plugin', 'nope.ts'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /PLUGIN_PATH.*nope\.ts/);
  });
});

describe('plugins new and plugins check', () => {
  for (const kind of ['adapter', 'packer', 'parser', 'plan-reader']) {
    it(`a new ${kind} loads unchanged, passes check, and is listed`, async () => {
      const repo = await makeRepo();
      const created = await runCli(['plugins', 'new', kind, `my-${kind}`], { cwd: repo });
      assert.equal(created.code, 0, created.stderr);
      const file = join(repo, '.supervisor', 'plugins', `my-${kind}.ts`);
      assert.match(await readFile(file, 'utf8'), /definePlugin/);
      const checked = await runCli(['plugins', 'check', file], { cwd: repo });
      assert.equal(checked.code, 0, checked.stderr);
      assert.match(checked.stdout, new RegExp(`ok: ${kind} "my-${kind}"`));
      const listed = await listPlugins(repo);
      assert.ok(listed.some((p) => p.name === `my-${kind}` && p.layer === 'repo'));
    });
  }

  it('refuses to overwrite an existing plugin without --force', async () => {
    const repo = await makeRepo();
    assert.equal((await runCli(['plugins', 'new', 'parser', 'p1'], { cwd: repo })).code, 0);
    const again = await runCli(['plugins', 'new', 'parser', 'p1'], { cwd: repo });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /FILE_EXISTS/);
  });

  it('rejects a bad name and a bad kind', async () => {
    const repo = await makeRepo();
    assert.equal((await runCli(['plugins', 'new', 'parser', '../evil'], { cwd: repo })).code, 2);
    assert.equal((await runCli(['plugins', 'new', 'formatter', 'x'], { cwd: repo })).code, 2);
  });

  it('check reports a broken file with its code', async () => {
    const run = await runCli(['plugins', 'check', join(fixtures, 'bad', 'kind', 'wrongkind.mjs')], { cwd: fixtures });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /PLUGIN_UNKNOWN_KIND/);
  });

  it('check refuses a folder named like a plugin file, as discovery does', async () => {
    const repo = await makeRepo();
    await mkdir(join(repo, 'looks-like.ts'));
    const run = await runCli(['plugins', 'check', 'looks-like.ts'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /PLUGIN_PATH/);
  });
});

describe('the supervisor/plugin resolution hooks', () => {
  async function installs(repo: string, argv: string[]): Promise<number> {
    let calls = 0;
    const run = await runCli(argv, { cwd: repo, deps: { installPluginApi: async () => void calls++ } });
    assert.equal(run.code, 0, run.stderr);
    return calls;
  }

  it('are installed only when discovery found plugin files to load', async () => {
    const empty = await makeRepo();
    assert.equal(await installs(empty, ['plugins', 'list', '--json']), 0, 'built-ins only');
    const withPlugin = await makeRepo();
    await mkdir(join(withPlugin, '.supervisor', 'plugins'), { recursive: true });
    await writeFile(join(withPlugin, '.supervisor', 'plugins', 'plain.mjs'), "export default { kind: 'parser', name: 'plain', parse: () => ({}) };\n");
    assert.equal(await installs(withPlugin, ['plugins', 'list', '--json']), 1);
    assert.equal(await installs(withPlugin, ['plugins', 'list', '--json', '--no-user-plugins']), 0, '--no-user-plugins');
  });
});
