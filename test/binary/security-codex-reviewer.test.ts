/**
 * Issue 27, D2, through the built binary under real bwrap (as root, as CI runs): codex as a
 * reviewer with allowed commands cannot start its own nested sandbox inside ours, so the adapter
 * lifts it (`--sandbox danger-full-access`) and the commands run inside supervisor's sandbox;
 * the notice says so, not "inside its own sandbox".
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FAKE_BIN } from '../helpers/fake-clis.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { missingBwrap, requires } from '../helpers/requires.ts';
import { binarySuite, makeSandbox } from './binary.ts';

const approved = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';

function suiteOptions(): { skip?: string } {
  const binary = binarySuite();
  return binary.skip ? binary : requires(missingBwrap());
}

interface RunEvent {
  kind: string;
  bin?: string;
  args?: string[];
}

describe('codex as a reviewer under --sandbox bwrap (issue 27, D2)', suiteOptions(), () => {
  it('with --allow-command, the reviewer codex runs with danger-full-access inside our sandbox, and the notice names supervisor\'s sandbox', async () => {
    const box = await makeSandbox();
    // The fake codex is copied into a folder on PATH, which the sandbox shows (the project may sit
    // under TMPDIR, which it hides), with its reply file.
    const fakes = await tempDir('sv-fakes-');
    const lib = join(fakes, 'lib');
    await mkdir(lib);
    for (const file of ['codex', '_fake-cli.mjs', '_fake-envelopes.mjs', '_fake-script.mjs']) await copyFile(join(FAKE_BIN, file), join(lib, file));
    await writeFile(join(fakes, 'codex'), `#!/bin/sh\nexec "${process.execPath}" "${join(lib, 'codex')}" "$@"\n`);
    await chmod(join(fakes, 'codex'), 0o755);
    await writeFile(join(fakes, 'reply.md'), `Looks right.\n\n${approved}`);
    const tools = join(fakes, 'tools');
    await mkdir(tools);
    for (const tool of ['bwrap', 'prlimit']) {
      const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (path) await symlink(path, join(tools, tool));
    }
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const run = await box.run(
      ['run', 'reviewer', '--cli', 'codex', '--sandbox', 'bwrap', '--allow-command', 'npm test', '--pass-env', 'FAKE_*', '--task', 'Review math.js', '--target', 'math.js', '--retries', '0', '--json'],
      { cwd: repo, env: { PATH: `${fakes}:${box.path}:${tools}`, FAKE_CLI_REPLY_FILE: join(fakes, 'reply.md') } },
    );
    const result = JSON.parse(run.stdout) as { status: string; run_dir: string; notices: string[] };
    assert.equal(run.code, 0, `${run.stderr}\n${run.stdout}`);
    assert.equal(result.status, 'pass');
    const attempts = readFileSync(join(result.run_dir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunEvent).filter((e) => e.kind === 'attempt_started');
    assert.ok(attempts.length >= 1);
    for (const attempt of attempts) {
      const args = attempt.args ?? [];
      const at = args.indexOf('--sandbox');
      assert.ok(at >= 0 && args[at + 1] === 'danger-full-access', `codex argv: ${args.join(' ')}`);
    }
    const notice = result.notices.find((n) => /codex/.test(n) && /npm test/.test(n));
    assert.ok(notice, result.notices.join('\n'));
    assert.match(notice, /inside supervisor's bwrap sandbox/);
    assert.doesNotMatch(notice, /inside its own sandbox/);
  });
});
