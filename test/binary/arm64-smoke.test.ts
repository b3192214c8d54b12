/**
 * The arm64 binary we ship is run, not only built: under qemu-user (Debian's qemu-user-static,
 * a binfmt registration and libc6:arm64, installed by .ci/run), in a temporary repository:
 * `--version`, `run reviewer --cli replay`, and a two-task `workflow run --cli replay`. The
 * binary starts itself again for the replay adapter, so binfmt (not `qemu-aarch64 <binary>`)
 * is what makes it run. Skipped with a note locally when qemu is missing; a failure in CI.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { git, makeRepo } from '../helpers/git-repo.ts';
import { makeSandbox } from './binary.ts';

const ARM64 = fileURLToPath(new URL('../../dist/supervisor-linux-arm64', import.meta.url));
const BINFMT = '/proc/sys/fs/binfmt_misc/qemu-aarch64';

function missing(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'the arm64 smoke test runs on linux-x64 hosts';
  if (!existsSync(ARM64)) return `${ARM64} does not exist: run "npm run build"`;
  if (!existsSync(BINFMT) || !readFileSync(BINFMT, 'utf8').startsWith('enabled')) return `no enabled qemu-aarch64 binfmt registration (${BINFMT}): install qemu-user-static and binfmt-support (see .ci/run)`;
  if (!existsSync('/lib/ld-linux-aarch64.so.1')) return 'no arm64 C library (/lib/ld-linux-aarch64.so.1): install libc6:arm64 and libstdc++6:arm64 (see .ci/run)';
  return undefined;
}

function suite(): { skip?: string } {
  const why = missing();
  if (!why) return {};
  if (process.env.CI && process.platform === 'linux' && process.arch === 'x64') throw new Error(`The arm64 smoke test cannot run in CI: ${why}`);
  process.stderr.write(`\n*** SKIPPING the arm64 smoke test: ${why}\n\n`);
  return { skip: why };
}

// Replay changes no file, and an empty worker round is never integrated: each task's gate commits its line.
const COMMIT_LINE = 'echo line-of-$SUPERVISOR_TASK_ID >> README.md && git add README.md && git -c user.name=s -c user.email=s@s commit -qm $SUPERVISOR_TASK_ID';
const PLAN = `name: arm64 smoke
tasks:
  - id: one
    title: First
    task: Add a line to README.md
    gates: ['${COMMIT_LINE}']
  - id: two
    title: Second
    task: Add another line to README.md
    depends_on: [one]
    gates: ['${COMMIT_LINE}']
`;

describe('the arm64 binary runs under qemu-user', suite(), () => {
  it('prints its version, runs a role and a two-task workflow offline', async () => {
    const box = await makeSandbox(ARM64);
    const repo = await makeRepo({ 'README.md': '# smoke\n', 'plan.yaml': PLAN });
    const version = await box.run(['--version'], { cwd: repo });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);

    const run = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review the README', '--target', 'README.md', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { status: string; run_id: string; cli: string };
    assert.equal(result.status, 'pass');
    assert.equal(result.cli, 'replay');

    // The plan's gates commit for the replay worker (which changes no file): the plan is the repository's own, so --trust.
    const flow = await box.run(['workflow', 'run', 'plan.yaml', '--cli', 'replay', '--trust', '--json'], { cwd: repo });
    const workflow = JSON.parse(flow.stdout) as { status: string; exit_code: number; branch: string; tasks: { id: string; status: string; runs: unknown[] }[] };
    assert.equal(flow.code, workflow.exit_code, flow.stderr);
    assert.deepEqual(workflow.tasks.map((t) => t.id), ['one', 'two']);
    // Every task ran its worker and reached a final state; the result is the engine's own.
    for (const task of workflow.tasks) assert.ok(task.runs.length >= 1, `${task.id} ran no run: ${flow.stderr}`);
    assert.ok(['pass', 'gaps'].includes(workflow.status), flow.stderr);
    assert.equal(git(repo, 'rev-parse', '--verify', '-q', `refs/heads/${workflow.branch}`).trim().length, 40);
  });
});
