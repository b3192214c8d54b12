/**
 * Instruction files named by roles (seed 004's system.md). Role.instructions holds absolute
 * paths, except for built-in files inside the single binary, which are "<builtin>/roles/x.md"
 * assets with no file on disk: read them with readInstruction, or write them out with
 * instructionFileOnDisk when a CLI needs a real path.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readAsset } from '../assets.ts';
import { errors } from '../errors.ts';

const BUILTIN = '<builtin>/';

/** The text of an instruction file (from disk, or from the built-in assets). */
export async function readInstruction(path: string): Promise<string> {
  if (path.startsWith(BUILTIN)) {
    const asset = readAsset(path.slice(BUILTIN.length));
    if (!asset) throw errors.fileRead(path, new Error('no such built-in file'));
    return asset.content;
  }
  return readFile(path, 'utf8').catch((cause: unknown) => {
    throw errors.fileRead(path, cause);
  });
}

/** A real file path for an instruction file: itself, or a copy written into `dir` for a built-in asset. */
export async function instructionFileOnDisk(path: string, dir: string): Promise<string> {
  if (!path.startsWith(BUILTIN)) return path;
  const target = join(dir, basename(path));
  await mkdir(dir, { recursive: true });
  await writeFile(target, await readInstruction(path));
  return target;
}
