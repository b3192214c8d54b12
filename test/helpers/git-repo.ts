/** Real temporary git repositories for tests. */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 't@example.com' },
  });
}

/** Writes files (path → content) under root, creating folders. */
export async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** A temporary folder (not a repository). */
export async function tempDir(prefix = 'sv-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A new git repository holding `files`, committed once. */
export async function makeRepo(files: Record<string, string | Buffer> = { 'README.md': '# test\n' }): Promise<string> {
  const root = await tempDir('sv-repo-');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 't@example.com');
  git(root, 'config', 'user.name', 'test');
  git(root, 'config', 'commit.gpgsign', 'false');
  await writeFiles(root, files);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');
  return root;
}

/** An environment whose PATH finds a git that runs `before(itsFolder)` (shell lines) and then the real git. */
export async function wrappedGit(before: (folder: string) => string): Promise<{ env: NodeJS.ProcessEnv; folder: string }> {
  const folder = await tempDir();
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await writeFile(join(folder, 'git'), `#!/bin/sh\n${before(folder)}\nexec ${real} "$@"\n`);
  await chmod(join(folder, 'git'), 0o755);
  return { env: { ...process.env, PATH: `${folder}${delimiter}${process.env.PATH ?? ''}` }, folder };
}

/** An environment whose PATH finds a git that logs every call (its arguments, one line) to `calls` before running the real one. */
export async function countingGit(): Promise<{ env: NodeJS.ProcessEnv; log: string; calls: () => Promise<string[]> }> {
  const { env, folder } = await wrappedGit((folder) => `echo "$*" >> '${join(folder, 'calls')}'`);
  const log = join(folder, 'calls');
  return { env, log, calls: async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean) };
}
