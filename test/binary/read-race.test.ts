/**
 * No race reads outside the repository, through the built binary (issue 13, item 6): while
 * another process flips files and folders between real ones and symlinks to an outside secret,
 * `pack` (globs, targets, always_include, imports) runs again and again and never prints the secret.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const FLIPPER = fileURLToPath(new URL('../fixtures/race/flip-paths.mjs', import.meta.url));
const SECRET = 'OUTSIDE-SECRET-TEXT';
/** Files in the flipped folder: each is one more read racing the flip. */
const IN_FOLDER = 200;

describe('pack never reads outside the repository while paths are swapped for symlinks (binary)', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  it('prints no outside secret over >= 200 swaps of a file and a folder, for --include, --target, always_include and $TARGET_IMPORTS', async () => {
    const outside = await tempDir('sv-outside-');
    const files: Record<string, string> = {
      '.supervisor/roles/racer.yaml': 'name: racer\ncli: replay\ncontext:\n  always_include: ["*.txt", "dir/*.txt"]\n',
      '.supervisor/roles/importer.yaml': 'name: importer\ncli: replay\ncontext:\n  include: ["$TARGET_IMPORTS"]\n',
      'main.ts': Array.from({ length: 50 }, (_, i) => `import f${i} from './dir/f${i}.txt';\n`).join('') + "import flip from './flip.txt';\n",
      'flip.txt': 'inside file\n',
    };
    const secrets: Record<string, string> = { 'secret.txt': `${SECRET}\n` };
    for (let i = 0; i < IN_FOLDER; i++) {
      files[`dir/f${i}.txt`] = 'inside folder\n';
      secrets[`dir/f${i}.txt`] = `${SECRET}\n`;
    }
    await writeFiles(outside, secrets);
    const repo = await makeRepo(files);
    const specs = ['file', join(repo, 'flip.txt'), join(outside, 'secret.txt'), 'dir', join(repo, 'dir'), join(outside, 'dir')];
    const flipper = spawn(process.execPath, [FLIPPER, ...specs], { stdio: ['pipe', 'pipe', 'inherit'] });
    let swaps = 0;
    flipper.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const m of chunk.matchAll(/swaps (\d+)/g)) swaps = Math.max(swaps, Number(m[1]));
    });
    const done = new Promise<void>((resolve) => flipper.on('close', () => resolve()));
    const commands = [
      ['pack', '--no-user-plugins', '--include', '*.txt', '--include', 'dir/**'],
      // One target each: a target that leads outside when it is checked stops the pack (exit 2).
      ['pack', '--no-user-plugins', '--target', 'dir/f0.txt'],
      ['pack', '--no-user-plugins', '--target', 'flip.txt'],
      ['pack', '--no-user-plugins', '--role', 'racer'],
      ['pack', '--no-user-plugins', '--role', 'importer', '--target', 'main.ts'],
    ];
    let runs = 0;
    let insideSeen = 0;
    try {
      while (runs < 8 || swaps < 200) {
        const outputs = await Promise.all(commands.map((args) => box.run(args, { cwd: repo })));
        for (const out of outputs) {
          assert.ok(!out.stdout.includes(SECRET), `run ${runs}: leaked the outside secret after ${swaps} swaps`);
          if (out.stdout.includes('inside ')) insideSeen++;
        }
        runs++;
      }
    } finally {
      flipper.stdin.end();
      await done;
    }
    assert.ok(swaps >= 200, `only ${swaps} swaps`);
    assert.ok(insideSeen > 0, 'the flipped files were never read: the test raced nothing');
  });
});
