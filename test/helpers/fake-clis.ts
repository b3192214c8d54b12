/**
 * The fake CLIs of test/fixtures/bin (Node scripts that print the real CLIs' captured formats
 * and really edit files), behind one kind of wrapper: a shell script that names this test's node
 * by absolute path, so a PATH without node (the binary tests') still runs them.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './git-repo.ts';

export const FAKE_BIN = fileURLToPath(new URL('../fixtures/bin/', import.meta.url));

/** Writes wrappers for `names` (fakes of test/fixtures/bin) into `dir`, or a new folder; returns the folder. */
export async function fakeClis(names: string[] = ['claude'], dir?: string): Promise<string> {
  const folder = dir ?? (await tempDir('sv-fakes-'));
  for (const name of names) {
    await writeFile(join(folder, name), `#!/bin/sh\nexec "${process.execPath}" "${join(FAKE_BIN, name)}" "$@"\n`);
    await chmod(join(folder, name), 0o755);
  }
  return folder;
}
