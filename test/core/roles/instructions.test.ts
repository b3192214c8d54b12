/** Instruction files named by roles: read from disk or from the built-in assets (as inside the binary). */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { instructionFileOnDisk, readInstruction } from '../../../core/roles/instructions.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { rejects } from './helpers.ts';

describe('role instruction files', () => {
  it('reads a built-in instruction file by its <builtin>/ name, and writes it out for a CLI', async () => {
    const text = await readInstruction('<builtin>/roles/system.md');
    assert.match(text, /summary_for_supervisor/);
    const dir = await tempDir('sv-instr-');
    const path = await instructionFileOnDisk('<builtin>/roles/system.md', join(dir, 'out'));
    assert.equal(path, join(dir, 'out', 'system.md'));
    assert.equal(await readFile(path, 'utf8'), text);
  });

  it('reads a file on disk and hands its own path to a CLI', async () => {
    const dir = await tempDir('sv-instr-');
    await writeFile(join(dir, 'rules.md'), '# rules');
    assert.equal(await readInstruction(join(dir, 'rules.md')), '# rules');
    assert.equal(await instructionFileOnDisk(join(dir, 'rules.md'), join(dir, 'unused')), join(dir, 'rules.md'));
    await rejects(() => readInstruction(join(dir, 'missing.md')), 'FILE_READ');
    await rejects(() => readInstruction('<builtin>/roles/missing.md'), 'FILE_READ');
  });
});
