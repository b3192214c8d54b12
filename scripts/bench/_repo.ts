/** What the engine and workflow benchmarks share: a real git repository of N small files. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

/** A fresh repository with `files` one-line TypeScript files (100 a folder) and a README, committed. */
export function makeRepo(files: number, prefix = 'sv-bench'): string {
  const root = mkdtempSync(join(tmpdir(), `${prefix}-${files}-`));
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
