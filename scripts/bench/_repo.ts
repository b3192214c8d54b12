/** What the engine and workflow benchmarks share: a real git repository of N small files. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder in the system's temp folder, removed when the bench exits (a failed one too). */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

/** A fresh repository with `files` one-line TypeScript files (100 a folder) and a README, committed. */
export function makeRepo(files: number, prefix = 'sv-bench'): string {
  const root = scratchDir(`${prefix}-${files}-`);
  git(root, 'init', '-q', '-b', 'main');
  for (let i = 0; i < files; i++) {
    const dir = join(root, 'src', `d${Math.floor(i / 100)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  writeFileSync(join(root, 'README.md'), '# bench\n');
  git(root, 'add', '-A');
  git(root, '-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'init');
  return root;
}
