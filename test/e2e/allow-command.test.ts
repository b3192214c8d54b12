/**
 * What a CLI may run: the role's `allowed_commands` and `--allow-command` reach each CLI's own
 * permission mechanism (seen in `run --dry-run`'s command line); "*" (any command) needs a sandbox.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeRepo } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';
import { fakeEnv } from './_run.ts';
import { missingBwrap, requires } from '../helpers/requires.ts';

interface Dry {
  command: { bin: string; args: string[] };
  notices: string[];
}

async function dryRun(repo: string, argv: string[]): Promise<Dry> {
  const run = await runCli(['run', ...argv, '--task', 'fix it', '--dry-run', '--json'], { cwd: repo, env: fakeEnv() });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Dry;
}

/** The value after each occurrence of a flag. */
const valuesOf = (args: string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]!] : []));

describe('allowed commands reach each CLI', () => {
  it('--allow-command "npm test": claude --allowedTools "Bash(npm test:*)", gemini --allowed-tools "run_shell_command(npm test)"', async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const claude = await dryRun(repo, ['implementer', '--cli', 'claude', '--allow-command', 'npm test', '--allow-command', 'npm run lint']);
    assert.deepEqual(valuesOf(claude.command.args, '--allowedTools'), ['Bash(npm test:*)', 'Bash(npm run lint:*)']);
    const gemini = await dryRun(repo, ['implementer', '--cli', 'gemini', '--allow-command', 'npm test']);
    assert.deepEqual(valuesOf(gemini.command.args, '--allowed-tools'), ['run_shell_command(npm test)']);
    assert.deepEqual(valuesOf(gemini.command.args, '--approval-mode'), ['auto_edit']);
    assert.deepEqual([claude.notices.filter((n) => /allow|command/i.test(n)), gemini.notices.filter((n) => /run only chosen|cannot limit/.test(n))], [[], []]);
  });

  it('codex: its own sandbox allows all or none (workspace-write for an editing role), said in a notice', async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const codex = await dryRun(repo, ['implementer', '--cli', 'codex', '--allow-command', 'npm test', '--allow-command', 'git commit']);
    assert.deepEqual(valuesOf(codex.command.args, '--sandbox'), ['workspace-write']);
    assert.ok(codex.notices.some((n) => /codex cannot limit its CLI to npm test, git commit/.test(n)), codex.notices.join('\n'));
  });

  it("codex as a reviewer inside --sandbox bwrap runs its allowed commands inside ours, and the notice says so (not 'inside its own sandbox')", requires(missingBwrap()), async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const codex = await dryRun(repo, ['reviewer', '--cli', 'codex', '--allow-command', 'npm test', '--sandbox', 'bwrap']);
    assert.deepEqual(valuesOf(codex.command.args, '--sandbox'), ['danger-full-access']);
    const notice = codex.notices.find((n) => /codex cannot limit its CLI to npm test/.test(n)) ?? '';
    assert.match(notice, /inside supervisor's bwrap sandbox/, codex.notices.join('\n'));
    assert.doesNotMatch(notice, /inside its own sandbox/);
  });

  it('cline has no such mechanism: a notice says so, and doctor too', async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const cline = await dryRun(repo, ['implementer', '--cli', 'cline', '--allow-command', 'npm test']);
    assert.ok(cline.notices.some((n) => /cline has no way to let its CLI run only chosen commands/.test(n)), cline.notices.join('\n'));
    const doctor = await runCli(['doctor', '--json'], { cwd: repo, env: fakeEnv() });
    const adapters = (JSON.parse(doctor.stdout) as { adapters: { name: string; command_permissions: string }[] }).adapters;
    assert.deepEqual(Object.fromEntries(adapters.filter((a) => a.name !== 'replay').map((a) => [a.name, a.command_permissions])), { claude: 'list', codex: 'all-or-none', gemini: 'list', cline: 'none' });
  });

  it("a role's allowed_commands reach the CLI too", async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    await mkdir(join(repo, '.supervisor', 'roles'), { recursive: true });
    await writeFile(join(repo, '.supervisor', 'roles', 'tester.yaml'), 'extends: implementer\nallowed_commands: ["npm test"]\n');
    const run = await runCli(['run', 'tester', '--cli', 'claude', '--task', 'x', '--dry-run', '--json'], { cwd: repo, env: fakeEnv(), trust: true });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(valuesOf((JSON.parse(run.stdout) as Dry).command.args, '--allowedTools'), ['Bash(npm test:*)']);
  });

  it('"*" (any command) without a sandbox is refused with exit 2 saying why; nothing runs', async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const run = await runCli(['run', 'implementer', '--cli', 'claude', '--task', 'x', '--allow-command', '*', '--json'], { cwd: repo, env: fakeEnv({ FAKE_CLI_LOG: join(repo, '..', 'never-written.jsonl') }) });
    assert.equal(run.code, 2, run.stderr);
    assert.equal((JSON.parse(run.stdout || run.stderr) as { code?: string; error?: { code: string } }).error?.code ?? JSON.parse(run.stdout || run.stderr).code, 'ALLOWED_COMMANDS_NEED_SANDBOX');
    assert.match(run.stderr + run.stdout, /needs a sandbox/);
  });

  it('"*" inside a sandbox: claude gets the whole Bash tool, codex lifts its own sandbox, gemini is yolo', requires(missingBwrap()), async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const sandboxed = ['--allow-command', '*', '--sandbox', 'bwrap'];
    const claude = await dryRun(repo, ['implementer', '--cli', 'claude', ...sandboxed]);
    assert.deepEqual(valuesOf(claude.command.args, '--allowedTools'), ['Bash']);
    assert.deepEqual(valuesOf((await dryRun(repo, ['implementer', '--cli', 'codex', ...sandboxed])).command.args, '--sandbox'), ['danger-full-access']);
    assert.deepEqual(valuesOf((await dryRun(repo, ['implementer', '--cli', 'gemini', ...sandboxed])).command.args, '--approval-mode'), ['yolo']);
  });
});
