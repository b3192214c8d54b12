import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

describe('--help fits the terminal it is shown on', () => {
  it('wraps at the injected stdout\'s width (deps.stdout.columns), 100 when it has none', async () => {
    const cwd = await tempDir('sv-help-');
    const widest = async (columns?: number) => {
      let text = '';
      const stdout = { write: (t: string) => (text += t), isTTY: true, ...(columns ? { columns } : {}) };
      const run = await runCli(['--help'], { cwd, deps: { stdout } });
      assert.equal(run.code, 0, run.stderr);
      return Math.max(...text.split('\n').map((line) => line.length));
    };
    assert.ok((await widest(60)) <= 60);
    const plain = await widest();
    assert.ok(plain > 60 && plain <= 100, String(plain));
  });
});
