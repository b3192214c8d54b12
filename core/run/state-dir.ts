/**
 * The state folder `<repo>/.supervisor/`: `runs/<run-id>/` (the run log) and `worktrees/`.
 * A `.gitignore` written on first use keeps both (and itself) out of git, so `git status` in
 * the user's checkout stays clean. An existing `.gitignore` is the user's and is left alone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STATE_DIR_NAME = '.supervisor';

const GITIGNORE = `# Written by supervisor: run logs and worktrees stay out of git.
/runs/
/worktrees/
/.gitignore
`;

export interface StatePaths {
  root: string;
  runs: string;
  worktrees: string;
}

export function statePaths(repoRoot: string): StatePaths {
  const root = join(repoRoot, STATE_DIR_NAME);
  return { root, runs: join(root, 'runs'), worktrees: join(root, 'worktrees') };
}

/** Creates the state folder and its `.gitignore` if missing; safe to call from parallel runs. */
export function ensureStateDir(repoRoot: string): StatePaths {
  const paths = statePaths(repoRoot);
  mkdirSync(paths.runs, { recursive: true });
  try {
    // 'wx': never overwrite the user's .gitignore, nor one a parallel run has just written.
    writeFileSync(join(paths.root, '.gitignore'), GITIGNORE, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return paths;
}
