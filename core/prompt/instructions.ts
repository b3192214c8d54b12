/**
 * A role's instruction files (seed 004's system.md): read to be rendered into the prompt, or
 * handed to the CLI as files when its adapter takes them as arguments. Built-in files inside
 * the binary have no real path ("<builtin>/roles/system.md"), so for a CLI they are written
 * once to a content-addressed temporary folder.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readAsset } from '../assets.ts';
import { promptErrors } from './errors.ts';

export interface InstructionText {
  /** File name as shown in the prompt ("system.md"): stable across machines. */
  name: string;
  content: string;
}

const BUILTIN = '<builtin>/';

/**
 * Built-in files in the binary ("<builtin>/roles/system.md") are assets; everything else, built-in
 * files from source included (real paths), is read from disk.
 */
async function readInstruction(file: string, role: string): Promise<string> {
  if (file.startsWith(BUILTIN)) {
    const found = readAsset(file.slice(BUILTIN.length));
    if (found) return found.content;
  }
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw promptErrors.instructionRead(file, role, cause);
  }
}

/** The texts of the instruction files, in the role's order. */
export async function readInstructions(files: readonly string[], role: string): Promise<InstructionText[]> {
  return Promise.all(files.map(async (file) => ({ name: basename(file), content: await readInstruction(file, role) })));
}

/** Real paths a CLI can open: built-ins without one are materialised under the temp folder. */
export async function instructionPaths(files: readonly string[], role: string, tempRoot = tmpdir()): Promise<string[]> {
  return Promise.all(
    files.map(async (file) => {
      if (!file.startsWith(BUILTIN)) return file;
      const content = await readInstruction(file, role);
      const dir = join(tempRoot, 'supervisor-builtin', createHash('sha256').update(content).digest('hex').slice(0, 16));
      const path = join(dir, basename(file));
      await mkdir(dir, { recursive: true });
      await writeFile(path, content);
      return path;
    }),
  );
}
