/** A reviewer's range resolved to commit ids: both ends with one git, a bad end named in the error. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveReviewRange } from '../../../core/run/start-point.ts';
import { git, makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';

async function twoCommits(): Promise<{ repo: string; first: string; second: string }> {
  const repo = await makeRepo({ 'a.ts': 'a\n' });
  const first = git(repo, 'rev-parse', 'HEAD').trim();
  await writeFiles(repo, { 'a.ts': 'b\n' });
  git(repo, 'commit', '-qam', 'second');
  return { repo, first, second: git(repo, 'rev-parse', 'HEAD').trim() };
}

/** An environment whose git notes each rev-parse it runs. */
async function countingGit(): Promise<{ env: Record<string, string | undefined>; revParses: () => Promise<number> }> {
  const bin = await tempDir();
  const log = join(bin, 'calls');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await writeFile(join(bin, 'git'), `#!/bin/sh\ncase "$*" in *rev-parse*) echo rev-parse >> '${log}' ;; esac\nexec ${real} "$@"\n`);
  await chmod(join(bin, 'git'), 0o755);
  const revParses = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
  return { env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` }, revParses };
}

describe('resolveReviewRange', () => {
  it('resolves both ends of <base>..<head> with one rev-parse', async () => {
    const { repo, first, second } = await twoCommits();
    const { env, revParses } = await countingGit();
    const range = await resolveReviewRange(repo, `${first.slice(0, 8)}..HEAD`, undefined, env);
    assert.deepEqual(range, { base: first, head: second, empty: false, spec: `${first.slice(0, 8)}..HEAD` });
    assert.equal(await revParses(), 1);
    assert.equal((await resolveReviewRange(repo, 'HEAD..HEAD', undefined, env)).empty, true);
  });

  it('names the end that is no commit (a usage error)', async () => {
    const { repo, first } = await twoCommits();
    await assert.rejects(resolveReviewRange(repo, `${first}..no-such-branch`, undefined), (e: { code?: string; message: string }) => e.code === 'USAGE' && /--review no-such-branch: no such commit/.test(e.message));
    await assert.rejects(resolveReviewRange(repo, `nope..${first}`, undefined), (e: { code?: string; message: string }) => e.code === 'USAGE' && /--review nope: no such commit/.test(e.message));
    await assert.rejects(resolveReviewRange(repo, `${first}...HEAD`, undefined), (e: { code?: string }) => e.code === 'USAGE');
  });
});
