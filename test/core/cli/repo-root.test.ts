/**
 * Which repository a command works on is what git itself says: an empty `.git` folder is no
 * repository (a run there happens in place, in the current folder, not in the parent holding
 * it), and a bare repository nested in a work tree is refused as `run` refuses bare ones.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findRepoRoot } from '../../../core/command/context.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const roots: string[] = [];

/** The error code of a --json run: the last line of stderr (notices come before it). */
function errorCode(stderr: string): string {
  return (JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code;
}
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

async function temp(): Promise<string> {
  const dir = await tempDir('sv-root-');
  roots.push(dir);
  return dir;
}

describe('repository detection', () => {
  it('an empty .git folder in a parent is no repository: the root is the current folder', async () => {
    const parent = await temp();
    await mkdir(join(parent, '.git'));
    await mkdir(join(parent, 'project'));
    assert.equal(await findRepoRoot(join(parent, 'project')), join(parent, 'project'));
    const run = await runCli(['run', 'oneshot', '--task', 'say hi', '--cli', 'replay', '--json'], { cwd: join(parent, 'project') });
    const result = JSON.parse(run.stdout) as { run_dir: string; worktree: { mode: string; reason: string } };
    assert.equal(result.worktree.reason, 'not a git repository');
    assert.ok(result.run_dir.startsWith(join(parent, 'project', '.supervisor')), result.run_dir);
  });

  it('a subfolder of a work tree finds the top; an empty .git inside a work tree does not stop the climb', async () => {
    const repo = await makeRepo();
    roots.push(repo);
    await mkdir(join(repo, 'a', 'b', '.git'), { recursive: true });
    assert.equal(await findRepoRoot(join(repo, 'a', 'b')), repo);
  });

  it('a bare repository nested in a work tree is refused by run and workflow run (BARE_REPOSITORY), not run in the work tree', async () => {
    const repo = await makeRepo();
    roots.push(repo);
    git(repo, 'init', '-q', '--bare', 'nested.git');
    const bare = join(repo, 'nested.git');
    assert.equal(await findRepoRoot(bare), bare);
    const run = await runCli(['run', 'oneshot', '--task', 'say hi', '--cli', 'replay', '--json'], { cwd: bare });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(errorCode(run.stderr), 'BARE_REPOSITORY');
    const inGitDir = await runCli(['run', 'oneshot', '--task', 'say hi', '--cli', 'replay', '--json'], { cwd: join(repo, '.git', 'refs') });
    assert.equal(errorCode(inGitDir.stderr), 'BARE_REPOSITORY');
    const plan = join(await temp(), 'plan.yaml');
    await writeFile(plan, 'name: p\ntasks:\n  - id: one\n    title: One\n    task: Do one thing.\n    review: none\n');
    const workflow = await runCli(['workflow', 'run', plan, '--cli', 'replay', '--json'], { cwd: bare });
    assert.equal(workflow.code, 2, workflow.stderr);
    assert.equal(errorCode(workflow.stderr), 'BARE_REPOSITORY');
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*').trim(), '');
  });
});
