/**
 * The bad-role corpus (test/fixtures/roles-bad/): every case file starts with
 * `# expect: CODE text`, and must fail through the CLI, both checked as a file and loaded by
 * name, with exit code 2, that code, a message naming the file and containing the text, and
 * no stack trace. Files starting with `# helper` are parents the cases extend.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const corpus = fileURLToPath(new URL('../../fixtures/roles-bad/', import.meta.url));
const plugin = fileURLToPath(new URL('../../fixtures/roles/plugins/fixture-cli.ts', import.meta.url));
const STACK_LINE = /^\s+at .+[:(].*\d+:\d+\)?$/m;

interface Case {
  file: string;
  name: string;
  code: string;
  text: string;
}

async function loadCases(): Promise<Case[]> {
  const files = (await readdir(corpus)).filter((f) => /\.ya?ml$/.test(f)).sort();
  const cases: Case[] = [];
  for (const file of files) {
    const head = (await readFile(join(corpus, file), 'utf8')).split('\n', 1)[0]!;
    const match = /^# expect: ([A-Z_]+) (.+)$/.exec(head);
    if (match) cases.push({ file, name: file.replace(/\.ya?ml$/, ''), code: match[1]!, text: match[2]! });
    else assert.match(head, /^# helper/, `${file} must start with "# expect: CODE text" or "# helper"`);
  }
  return cases;
}

const cases = await loadCases();
let repo: string;

before(async () => {
  // The corpus is also installed as the repository's roles, to be loaded by name.
  repo = await makeRepo();
  await mkdir(join(repo, '.supervisor', 'plugins'), { recursive: true });
  await cp(plugin, join(repo, '.supervisor', 'plugins', 'fixture-cli.ts'));
  await cp(corpus, join(repo, '.supervisor', 'roles'), { recursive: true });
});

function assertFailure(run: { code: number; stdout: string; stderr: string }, c: Case, label: string): void {
  assert.equal(run.code, 2, `${label}: exit code\n${run.stderr}`);
  assert.ok(run.stderr.includes(`error [${c.code}]`), `${label}: expected code ${c.code}\n${run.stderr}`);
  assert.ok(run.stderr.includes(c.file), `${label}: message names the file ${c.file}\n${run.stderr}`);
  assert.ok(run.stderr.includes(c.text), `${label}: message contains ${JSON.stringify(c.text)}\n${run.stderr}`);
  assert.doesNotMatch(run.stderr, STACK_LINE, `${label}: no stack trace`);
}

describe('bad role corpus', () => {
  it('holds at least 25 cases', () => {
    assert.ok(cases.length >= 25, `${cases.length} cases`);
  });

  for (const c of cases) {
    it(`${c.file}: ${c.code}`, async () => {
      const asFile = await runCli(['roles', 'validate', join(corpus, c.file)], { cwd: repo, trust: true });
      assertFailure(asFile, c, 'roles validate <file>');
      assert.match(asFile.stdout, /1 role file checked, 1 invalid/);

      const byName = await runCli(['roles', 'show', c.name], { cwd: repo, trust: true });
      assertFailure(byName, c, 'roles show <name>');
      assert.equal(byName.stdout, '', 'nothing on stdout');
    });
  }

  it('--json gives the error as data on stderr with the code and the file', async () => {
    const c = cases.find((x) => x.code === 'ROLE_INVALID')!;
    const run = await runCli(['roles', 'show', c.name, '--json'], { cwd: repo, trust: true });
    assert.equal(run.code, 2);
    const { error } = JSON.parse(run.stderr) as { error: { code: string; details: { file: string } } };
    assert.equal(error.code, 'ROLE_INVALID');
    assert.ok(error.details.file.endsWith(c.file));
  });

  it('roles validate with no files reports every bad role of the repository, and exits 2', async () => {
    const run = await runCli(['roles', 'validate', '--json'], { cwd: repo, trust: true });
    assert.equal(run.code, 2);
    const report = JSON.parse(run.stdout) as { ok: boolean; roles: { file: string; ok: boolean; error?: { code: string } }[] };
    assert.equal(report.ok, false);
    for (const c of cases) {
      const check = report.roles.find((r) => r.file === join(repo, '.supervisor', 'roles', c.file));
      assert.equal(check?.error?.code, c.code, c.file);
    }
    // A helper ten roles deep is within the limit, and valid.
    assert.ok(report.roles.some((r) => r.file.endsWith(join('.supervisor', 'roles', 'deep-01.yaml')) && r.ok));
  });
});
