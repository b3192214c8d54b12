/**
 * `--target` means one thing for run, prompt and pack (issue 14, item 2): a file relative to the
 * current folder, or absolute inside the repository; anything else is a usage error naming it.
 * `prompt` prints byte for byte the prompt `run` writes to prompt.md, here from a subfolder.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const approved = 'Fine.\n\n```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';

describe('--target, from the binary', binarySuite(), () => {
  let box: Sandbox;
  let repo: string;
  let sub: string;
  before(async () => {
    box = await makeSandbox();
    repo = await makeRepo({ 'README.md': '# demo\n', 'src/math.js': 'export const add = (a, b) => a + b;\n', 'src/util.js': 'export const id = (x) => x;\n' });
    sub = join(repo, 'src');
  });

  it('prompt prints exactly the prompt run sends, for a target given from a subfolder', async () => {
    const reply = join(await tempDir(), 'reply.md');
    await writeFile(reply, approved);
    const run = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review math.js', '--target', 'math.js', '--json'], { cwd: sub, env: { SUPERVISOR_REPLAY: reply } });
    assert.equal(run.code, 0, run.stderr);
    const sent = await readFile(join((JSON.parse(run.stdout) as { run_dir: string }).run_dir, 'prompt.md'), 'utf8');
    // a reviewer's files carry line numbers (context.line_numbers)
    assert.match(sent, /### src\/math\.js\n\n```\n1 \| export const add/);
    const printed = await box.run(['prompt', 'reviewer', '--task', 'Review math.js', '--target', 'math.js'], { cwd: sub });
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(printed.stdout, sent);
    // an absolute path inside the repository is the same target
    const absolute = await box.run(['prompt', 'reviewer', '--task', 'Review math.js', '--target', join(sub, 'math.js')], { cwd: repo });
    assert.equal(absolute.code, 0, absolute.stderr);
    assert.equal(absolute.stdout, sent);
    const pack = await box.run(['pack', '--target', 'math.js'], { cwd: sub });
    assert.equal(pack.code, 0, pack.stderr);
    assert.match(pack.stdout, /### src\/math\.js/);
  });

  it('a missing target, a folder, a glob or a file outside the repository is a usage error naming it', async () => {
    for (const command of [['run', 'reviewer', '--cli', 'replay', '--task', 'T'], ['prompt', 'reviewer', '--task', 'T'], ['pack']]) {
      const missing = await box.run([...command, '--target', 'math.ts'], { cwd: sub });
      assert.equal(missing.code, 2, `${command[0]}: ${missing.stderr}`);
      assert.match(missing.stderr, /No such file for --target: math\.ts; did you mean "math\.js"\?/);
      const folder = await box.run([...command, '--target', 'src'], { cwd: repo });
      assert.equal(folder.code, 2, folder.stderr);
      assert.match(folder.stderr, /--target src is a folder/);
      const glob = await box.run([...command, '--target', '*.js'], { cwd: sub });
      assert.equal(glob.code, 2, glob.stderr);
      assert.match(glob.stderr, /--target \*\.js looks like a glob/);
      const outside = await box.run([...command, '--target', '../../outside.js'], { cwd: sub });
      assert.equal(outside.code, 2, outside.stderr);
      assert.match(outside.stderr, /outside the repository/);
    }
  });
});
