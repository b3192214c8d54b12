/**
 * Command-line edges that used to pass quietly: an empty --cli (fell back to the role's CLI), an
 * empty --gate or --sandbox, --cli ROLE=NAME for a role no task runs, `trust --remove` of a folder
 * that is not trusted (exit 0), and `workflow run` outside a repository ("HEAD HEAD: no such
 * commit"). Each is now a clear error with exit 2, before anything runs.
 */
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { FAKE_BIN } from '../../helpers/fake-clis.ts';
import { runCli } from '../../helpers/run-cli.ts';

const roots: string[] = [];
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

const PLAN = 'name: p\ntasks:\n  - id: one\n    title: One\n    task: Do one thing.\n    review: spec-only\n';

function errorOf(stderr: string): { code: string; message: string } {
  return (JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } }).error;
}

async function repoWithPlan() {
  const repo = await makeRepo();
  roots.push(repo);
  await writeFile(join(repo, 'plan.yaml'), PLAN);
  return repo;
}

describe('command-line edges', () => {
  it("run: --cli '', --gate '' and --sandbox '' are usage errors, not the role's defaults or a gate of nothing", async () => {
    const repo = await repoWithPlan();
    for (const extra of [['--cli', ''], ['--cli', '  '], ['--gate', ''], ['--sandbox', '']]) {
      const run = await runCli(['run', 'oneshot', '--task', 'hi', ...(extra[0] === '--cli' ? [] : ['--cli', 'replay']), ...extra, '--json'], { cwd: repo });
      assert.equal(run.code, 2, `${extra.join(' ')}: ${run.stderr}`);
      assert.equal(errorOf(run.stderr).code, 'USAGE');
      assert.match(errorOf(run.stderr).message, new RegExp(`${extra[0]}.*empty`));
    }
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*').trim(), '');
  });

  it("workflow run: --cli nope=replay names no role of the plan; --cli '' and --sandbox '' are empty", async () => {
    const repo = await repoWithPlan();
    const nope = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'nope=replay', '--dry-run', '--json'], { cwd: repo });
    assert.equal(nope.code, 2, nope.stderr);
    assert.match(errorOf(nope.stderr).message, /--cli nope=replay: no task of this plan runs a role named "nope"/);
    const typo = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'spec-reveiwer=replay', '--json'], { cwd: repo });
    assert.equal(typo.code, 2);
    assert.match(errorOf(typo.stderr).message, /did you mean "spec-reviewer"/);
    // The fake claude on PATH: a dry run refuses what run refuses, a CLI that is not installed included.
    const ok = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'spec-reviewer=replay', '--dry-run', '--json'], { cwd: repo, env: { PATH: `${FAKE_BIN}:${process.env.PATH ?? ''}` } });
    assert.equal(ok.code, 0, ok.stderr);
    for (const extra of [['--cli', ''], ['--sandbox', '']]) {
      const run = await runCli(['workflow', 'run', 'plan.yaml', ...extra, '--dry-run', '--json'], { cwd: repo });
      assert.equal(run.code, 2, run.stderr);
    }
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*').trim(), '');
  });

  it('trust --remove of a folder that is not trusted exits 2', async () => {
    const repo = await repoWithPlan();
    const run = await runCli(['trust', '--remove', '/nonexistent', '--json'], { cwd: repo });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(errorOf(run.stderr).code, 'TRUST_NOT_LISTED');
  });

  it('workflow run outside a repository says so (NOT_A_REPOSITORY), not "HEAD HEAD: no such commit"', async () => {
    const dir = await tempDir('sv-norepo-');
    roots.push(dir);
    await writeFile(join(dir, 'plan.yaml'), PLAN);
    const run = await runCli(['workflow', 'run', 'plan.yaml', '--cli', 'replay', '--json'], { cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    const error = errorOf(run.stderr);
    assert.equal(error.code, 'NOT_A_REPOSITORY');
    assert.match(error.message, /not a git repository/);
    assert.doesNotMatch(run.stderr, /HEAD HEAD/);
  });
});
