/**
 * Instruction paths a loaded role holds are the ones the prompt layer reads: an overlay of a
 * built-in role gets the built-in's system.md first, then its own file, both readable.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readAsset } from '../../../core/assets.ts';
import { instructionPaths, readInstructions } from '../../../core/prompt/instructions.ts';
import { loadRole } from '../../../core/roles/load-role.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { ADAPTERS, roleEnv } from './helpers.ts';

describe('instruction paths of a loaded role', () => {
  it('an overlay of a built-in role reads the built-in system.md, then its own file', async () => {
    const env = await roleEnv(
      {
        repo: { 'mine.yaml': { name: 'mine', extends: 'oneshot', instructions: ['rules/local.md'] } },
        other: { [join('.supervisor', 'roles', 'rules', 'local.md')]: '# local rules\n' },
      },
      [...ADAPTERS, 'cline'],
    );
    const role = await loadRole('mine', env.opts);
    assert.deepEqual(role.instructions, [readAsset('roles/system.md')!.displayPath, join(env.repoRoles, 'rules', 'local.md')]);

    const texts = await readInstructions(role.instructions, role.name);
    assert.deepEqual(texts, [
      { name: 'system.md', content: readAsset('roles/system.md')!.content },
      { name: 'local.md', content: '# local rules\n' },
    ]);
    // Files on disk are handed to a CLI as they are.
    assert.deepEqual(await instructionPaths(role.instructions, role.name, await tempDir('sv-instr-')), role.instructions);
  });
});
