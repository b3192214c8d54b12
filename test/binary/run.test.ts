import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { git, makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { fakeClis } from '../helpers/fake-clis.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';


interface RunResult {
  status: string;
  exit_code: number;
  cli: string;
  output: Record<string, unknown> | null;
  failure: { class: string } | null;
  metrics: { model: string | null; attempts: number };
  files_changed: string[] | null;
  branch: string | null;
}

const approved = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';

describe('supervisor run, from the binary', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  it('runs a role offline through the replay adapter (the binary re-runs itself as the "CLI")', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const reply = join(await tempDir(), 'reply.md');
    await writeFile(reply, `Fine.\n\n${approved}`);
    const run = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review math.js', '--target', 'math.js', '--json'], {
      cwd: repo,
      env: { SUPERVISOR_REPLAY: reply },
    });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as RunResult;
    assert.equal(result.status, 'pass');
    assert.equal(result.cli, 'replay');
    assert.equal(result.output?.status, 'APPROVED');
  });

  it('answers offline with a schema-valid example when no replies are configured', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const run = await box.run(['run', 'planner', '--cli', 'replay', '--task', 'Plan input validation', '--target', 'math.js', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as RunResult;
    assert.equal(result.status, 'pass');
    assert.ok(Array.isArray(result.output?.phases), 'an example built from the inlined plan schema');
  });

  it('packs context and prints the prompt from the inlined templates', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const pack = await box.run(['pack', '--target', 'math.js'], { cwd: repo });
    assert.equal(pack.code, 0, pack.stderr);
    assert.match(pack.stdout, /export const add/);
    // The exact tokenizer is a separate asset of the binary, loaded on first use.
    const exact = await box.run(['pack', '--target', 'math.js', '--tokenizer', 'o200k', '--stats'], { cwd: repo });
    assert.equal(exact.code, 0, exact.stderr);
    assert.match(exact.stderr, /~\d+ tokens \(o200k\)/);
    const prompt = await box.run(['prompt', 'reviewer', '--task', 'Review math.js', '--target', 'math.js'], { cwd: repo });
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /Review math\.js/);
    assert.match(prompt.stdout, /export const add/);
  });

  it('runs the built-in claude adapter against a fake claude (node only behind an absolute path)', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    // The fake is a Node script; the wrapper names node by absolute path so PATH stays node-free.
    const fakes = await fakeClis();
    const reply = join(fakes, 'reply.md');
    await writeFile(reply, `Reviewed.\n\n${approved}`);
    const run = await box.run(['run', 'reviewer', '--cli', 'claude', '--task', 'Review math.js', '--target', 'math.js', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}`, FAKE_CLI_REPLY_FILE: reply },
    });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as RunResult;
    assert.equal(result.status, 'pass');
    assert.equal(result.output?.status, 'APPROVED');
  });

  it('stops a run on Ctrl-C (SIGINT): exit 130, the CLI ended', async () => {
    const repo = await makeRepo();
    const fakes = await fakeClis();
    const log = join(fakes, 'calls.jsonl');
    const child = spawn(box.binary, ['run', 'reviewer', '--cli', 'claude', '--task', 'Review', '--json'], {
      cwd: repo,
      env: box.env({ PATH: `${fakes}:${box.path}`, FAKE_CLI_HANG: '1', FAKE_CLI_LOG: log, FAKE_CLI_REPLY_FILE: join(fakes, 'none.md') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for (let i = 0; i < 200 && !existsSync(log); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(log), 'the fake CLI started');
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    const pid = (JSON.parse((await readFile(log, 'utf8')).trim().split('\n')[0]!) as { pid: number }).pid;
    assert.throws(() => process.kill(pid, 0), 'the CLI process is gone');
    assert.equal((JSON.parse(stdout) as RunResult).failure?.class, 'interrupted');
  });

  it('reports a missing CLI with exit 4', async () => {
    const repo = await makeRepo();
    const run = await box.run(['run', 'reviewer', '--cli', 'codex', '--task', 'Review', '--json'], { cwd: repo });
    assert.equal(run.code, 4, run.stderr);
    assert.equal((JSON.parse(run.stdout) as RunResult).failure?.class, 'not_found');
  });

  it("uses a TypeScript adapter plugin from a trusted repository's .supervisor/plugins in a user role", async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const tools = await tempDir('sv-tools-');
    // A "CLI" with no node in it: prints the reply file named in its environment.
    await writeFile(join(tools, 'echo-cli'), '#!/bin/sh\ncat > /dev/null\nprintf "model: echo-1\\n"\ncat "$ECHO_REPLY"\n');
    await chmod(join(tools, 'echo-cli'), 0o755);
    await writeFile(join(tools, 'reply.md'), `Looks right.\n\n${approved}`);
    await writeFiles(repo, {
      '.supervisor/plugins/echo.ts': ECHO_ADAPTER,
      '.supervisor/plugins/lib/parse-header.ts': ECHO_HELPER,
      '.supervisor/roles/echo-reviewer.yaml': 'name: echo-reviewer\nextends: reviewer\ncli: echo\n',
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'echo plugin and role');
    assert.equal((await box.run(['trust'], { cwd: repo })).code, 0);
    const run = await box.run(['run', 'echo-reviewer', '--task', 'Review math.js', '--target', 'math.js', '--json'], {
      cwd: repo,
      env: { PATH: `${tools}:${box.path}`, ECHO_REPLY: join(tools, 'reply.md') },
    });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as RunResult;
    assert.equal(result.cli, 'echo');
    assert.equal(result.status, 'pass');
    assert.equal(result.output?.status, 'APPROVED');
    assert.equal(result.metrics.model, 'echo-1', 'the metrics come from the plugin (and its relative helper)');
    // The run log tells the same story: the plugin's CLI ran and its answer was read.
    const log = await readFile(join(repo, '.supervisor', 'runs', JSON.parse(run.stdout).run_id as string, 'events.jsonl'), 'utf8');
    const events = log.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const first = (kind: string) => events.find((e) => e.kind === kind);
    assert.equal(first('run_started')?.cli, 'echo');
    assert.equal(first('attempt_started')?.bin, 'echo-cli');
    assert.deepEqual([first('cli_exited')?.exit_code, first('parsed')?.reported_status], [0, 'APPROVED']);
    assert.equal(first('run_finished')?.status, 'pass');
  });
});

const ECHO_ADAPTER = `import { basename } from 'node:path';
import { definePlugin, emptyMetrics, SupervisorError, type Extraction } from 'supervisor/plugin';
import { splitHeader } from './lib/parse-header.ts';

type Mode = 'stdin' | 'argument';
const mode: Mode = 'stdin';

if (typeof SupervisorError !== 'function') throw new Error('the API lacks SupervisorError');

export default definePlugin({
  kind: 'adapter',
  name: basename(import.meta.filename ?? 'echo.ts', '.ts'),
  description: 'Prints a canned reply (test adapter written in TypeScript)',
  bin: 'echo-cli',
  command: (request) => ({ args: [...request.flags], stdin: mode === 'stdin' ? request.prompt : undefined }),
  extract(result): Extraction {
    const { model, body } = splitHeader(result.stdout);
    return { text: body, metrics: { ...emptyMetrics(), model, durationMs: result.durationMs } };
  },
});
`;

const ECHO_HELPER = `/** "model: x" on the first line, then the reply. */
export function splitHeader(stdout: string): { model: string | null; body: string } {
  const [first, ...rest] = stdout.split('\\n');
  const match = /^model: (.+)$/.exec(first ?? '');
  return match ? { model: match[1]!.trim(), body: rest.join('\\n') } : { model: null, body: stdout };
}
`;
