import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { requires } from '../../helpers/requires.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/plugins/good', import.meta.url));

async function fakeBin(dir: string, name: string, script: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), `#!/bin/sh\n${script}\n`);
  await chmod(join(dir, name), 0o755);
}

describe('supervisor doctor', () => {
  it('--json is valid JSON and finds a fake CLI on PATH with its version', async () => {
    const repo = await makeRepo();
    await mkdir(join(repo, '.supervisor', 'plugins'), { recursive: true });
    await cp(join(fixtures, 'ts-adapter.ts'), join(repo, '.supervisor', 'plugins', 'ts-adapter.ts'));
    const bin = await tempDir('sv-bin-');
    await fakeBin(bin, 'ts-cli', 'echo "ts-cli 9.8.7"');
    const gitDir = join(await tempDir('sv-git-'));
    await fakeBin(gitDir, 'git', 'exec /usr/bin/git "$@"');
    const run = await runCli(['doctor', '--json'], { trust: true, cwd: repo, env: { PATH: `${bin}:${gitDir}` } });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    const adapter = report.adapters.find((a: { name: string }) => a.name === 'ts-adapter');
    assert.deepEqual([adapter.found, adapter.version, adapter.path], [true, 'ts-cli 9.8.7', join(bin, 'ts-cli')]);
    assert.equal(report.git.found, true);
    assert.match(report.git.version, /^git version /);
    assert.equal(report.repo.root, repo);
    const repoFolder = report.plugin_folders.find((f: { layer: string }) => f.layer === 'repo');
    assert.deepEqual(repoFolder.files, [join(repo, '.supervisor', 'plugins', 'ts-adapter.ts')]);
    // The folders as the registry's own discovery saw them: the user folder of the isolated HOME is absent.
    assert.deepEqual(report.plugin_folders.map((f: { layer: string; exists: boolean }) => [f.layer, f.exists]), [['user', false], ['repo', true]]);
  });

  it('with an empty PATH reports every CLI, git and repomix as not found (self-hosted adapters excepted)', async () => {
    const repo = await makeRepo();
    const empty = await tempDir('sv-empty-');
    const run = await runCli(['doctor', '--json'], { trust: true, cwd: repo, env: { PATH: empty } });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.git.found, false);
    assert.equal(report.repomix.found, false);
    for (const adapter of report.adapters) assert.equal(adapter.found, adapter.name === 'replay', adapter.name);
  });

  it('prints a readable report without --json', async () => {
    const repo = await makeRepo();
    const run = await runCli(['doctor'], { trust: true, cwd: repo });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /plugin folders/);
    assert.match(run.stdout, /state folder: /);
  });

  const noBwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', 'true']).status !== 0 && 'bubblewrap that can make namespaces (apt-get install bubblewrap)';
  it('names how a run\'s processes are tracked; --sandbox bwrap tests the sandbox from inside', requires(noBwrap), async () => {
    const repo = await makeRepo();
    const plain = await runCli(['doctor', '--json'], { cwd: repo });
    const processes = JSON.parse(plain.stdout).processes;
    assert.ok(processes.mechanism === 'cgroup' ? processes.where.startsWith('/sys/fs/cgroup') : processes.where === null, JSON.stringify(processes));
    assert.match((await runCli(['doctor'], { cwd: repo })).stdout, /^processes: /m);
    const bad = await runCli(['doctor', '--sandbox', '../x'], { cwd: repo });
    assert.equal(bad.code, 2);
    const run = await runCli(['doctor', '--sandbox', 'bwrap', '--json'], { cwd: repo, env: { SELFTEST_UNLISTED_SECRET: 'x' } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(report.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok]), [['capabilities', true], ['host_write', true], ['host_socket', true], ['environment', true], ['executor', true], ['git_folders', true]]);
  });
});
