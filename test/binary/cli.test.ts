import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { VERSION } from '../../core/version.ts';
import { makeRepo, writeFiles } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, runProgram, type Sandbox } from './binary.ts';

describe('the single binary, alone in a folder, without node', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  it('really has no node on its PATH', async () => {
    assert.equal(existsSync(join(box.path, 'node')), false);
    const probe = await runProgram(join(box.path, 'sh'), ['-c', 'command -v node'], { cwd: box.home, env: { PATH: box.path } });
    assert.notEqual(probe.code, 0, `node was found at ${probe.stdout}`);
  });

  it('prints its version', async () => {
    const run = await box.run(['--version']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), VERSION);
  });

  it('no command\'s --help shows an option twice (-f, -o, -w did: an option and its alias were both listed)', async () => {
    const { commands } = await import('../../core/cli/commands/index.ts');
    type Def = { command: string; describe: unknown; subcommands?: Def[] };
    const leaves = (defs: Def[], path: string[] = []): string[][] =>
      defs.filter((d) => d.describe !== false).flatMap((d) => (d.subcommands?.length ? leaves(d.subcommands, [...path, d.command.split(' ')[0]!]) : [[...path, d.command.split(' ')[0]!]]));
    for (const words of leaves(commands as Def[])) {
      const run = await box.run([...words, '--help']);
      assert.equal(run.code, 0, `${words.join(' ')}: ${run.stderr}`);
      const flags = [...run.stdout.matchAll(/^ {2}(?:-\w, | {4})(--[\w-]+)/gm)].map((m) => m[1]!);
      assert.deepEqual(flags.filter((f, i) => flags.indexOf(f) !== i), [], `${words.join(' ')} --help:\n${run.stdout}`);
    }
  });

  it('run of a reviewer outside a git repository is NOT_A_REPOSITORY (git said "unknown option `cached\'")', async () => {
    const { tempDir } = await import('../helpers/git-repo.ts');
    const run = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review', '--json'], { cwd: await tempDir('sv-no-repo-') });
    assert.equal(run.code, 2, run.stderr);
    assert.equal((JSON.parse(run.stderr) as { error: { code: string } }).error.code, 'NOT_A_REPOSITORY');
    assert.doesNotMatch(run.stderr, /unknown option/);
  });

  it('packs files with line numbers for the reviewer roles (they cite file:line), not for the implementer', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n' });
    const prompt = async (role: string) => (await box.run(['prompt', role, '--task', 'Look', '--target', 'math.js'], { cwd: repo })).stdout;
    for (const role of ['reviewer', 'spec-reviewer', 'code-quality-reviewer']) assert.match(await prompt(role), /### math\.js\n\n```\n1 \| export const add[^\n]*\n2 \| export const sub/, role);
    assert.match(await prompt('implementer'), /### math\.js\n\n```\nexport const add/);
  });

  it('prints help listing the commands', async () => {
    const run = await box.run(['--help']);
    assert.equal(run.code, 0, run.stderr);
    for (const command of ['run', 'runs', 'prompt', 'pack', 'parse', 'roles', 'plugins', 'doctor']) {
      assert.match(run.stdout, new RegExp(`supervisor ${command}\\b`), `help lists ${command}`);
    }
    assert.equal(run.stderr, '');
  });

  it('rejects an unknown command with a usage error (exit 2, JSON on stderr)', async () => {
    const run = await box.run(['frobnicate', '--json']);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.equal((JSON.parse(run.stderr) as { error: { code: string } }).error.code, 'USAGE');
  });

  it('runs doctor: the embedded Node, git, and the plugins/ folder beside the executable', async () => {
    const repo = await makeRepo();
    const run = await box.run(['doctor', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as {
      supervisor: { version: string; node: string };
      repo: { root: string; git: boolean };
      git: { found: boolean };
      plugin_folders: { layer: string; dir: string }[];
    };
    assert.equal(report.supervisor.version, VERSION);
    assert.match(report.supervisor.node, /^v24\./);
    assert.equal(report.repo.git, true);
    assert.equal(report.git.found, true);
    assert.deepEqual(report.plugin_folders[0], { ...report.plugin_folders[0], layer: 'beside-binary', dir: join(box.binDir, 'plugins') });
  });

  it('validates the built-in roles from inside the binary', async () => {
    const repo = await makeRepo();
    const run = await box.run(['roles', 'validate', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { ok: boolean; checked: number; roles: { name: string; file: string }[] };
    assert.equal(report.ok, true);
    assert.ok(report.roles.some((r) => r.name === 'planner' && r.file.startsWith('<builtin>/')), 'built-in planner checked from the inlined assets');
  });

  it('reports an invalid user role with exit 2', async () => {
    const repo = await makeRepo();
    await writeFiles(repo, { '.supervisor/roles/broken.yaml': 'name: broken\ncli: replay\nunknown_field: 1\n' });
    const run = await box.run(['roles', 'validate', '--json'], { cwd: repo });
    assert.equal(run.code, 2);
    const report = JSON.parse(run.stdout) as { ok: boolean; roles: { name: string; ok: boolean }[] };
    assert.equal(report.ok, false);
    assert.equal(report.roles.find((r) => r.name === 'broken')?.ok, false);
  });
});
