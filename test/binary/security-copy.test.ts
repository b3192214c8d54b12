/**
 * Issue 27 C02 (SECURITY.md I3), through the built binary: a plan's `base:` commit holds a
 * symbolic link where the user's checkout has a folder; set-up's `copy:` of the user's untracked
 * `.env` from that folder must not write it through the link into a host folder.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { fakeClis } from '../helpers/fake-clis.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

describe('C02: copies into a worktree follow no link on the destination side (issue 27)', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  it("a base: commit whose conf is a link to a host folder: the user's conf/.env is not written there", async () => {
    const host = await tempDir('sv-host-');
    const repo = await makeRepo({ 'README.md': '# demo\n', '.gitignore': '.env\n', 'conf/app.txt': 'app\n' });
    // A branch where conf is a link to the host folder (what an untrusted plan's base could name).
    git(repo, 'checkout', '-q', '-b', 'evil');
    await rm(join(repo, 'conf'), { recursive: true });
    await symlink(host, join(repo, 'conf'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'conf is a link');
    git(repo, 'checkout', '-q', '-');
    await mkdir(join(repo, 'conf'), { recursive: true });
    await writeFile(join(repo, 'conf', '.env'), 'SECRET=the-users-own\n');
    const plan = join(await tempDir('sv-plan-'), 'plan.yaml');
    await writeFile(plan, 'name: copy\nbase: evil\ncopy: [conf/.env]\ntasks:\n  - id: a\n    title: task a\n    task: Do a.\n    cli: claude\n    review: none\n    max_rounds: 1\n');
    const fakes = await fakeClis();
    const script = await tempDir('sv-script-');
    const out = await box.run(['workflow', 'run', plan, '--json'], { cwd: repo, env: { PATH: `${fakes}:${box.path}`, FAKE_CLI_SCRIPT: script } });
    assert.deepEqual(readdirSync(host), [], `nothing written into the host folder (exit ${out.code}): ${out.stderr}`);
  });
});
