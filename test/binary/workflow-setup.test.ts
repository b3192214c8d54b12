/**
 * Worktree set-up (issue 20, item 1), through the built binary: a small real Node project in a
 * temporary repository (a test script and one dependency vendored as a tarball made here with
 * `npm pack`; no network), whose `npm test` needs `node_modules`. With `setup: [npm ci
 * --offline]` its gates pass after the fake claude fixes the code; without set-up the gate
 * fails; what set-up made (node_modules, not gitignored here on purpose) is never committed;
 * `copy` brings an untracked file in without committing it; a failing set-up ends the task
 * `error` naming the command and the end of its output, and no CLI runs.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { fakeClis } from '../helpers/fake-clis.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';


interface Result {
  workflow_id: string;
  status: string;
  branch: string;
  gates: { passed: boolean | null; failed: string | null };
  tasks: { id: string; status: string; issues: string[]; runs: { role: string; run_id: string }[] }[];
  notices: string[];
}

/** Folder of tools for the sandbox PATH: the fake claude, and node and npm (set-up and gates need them). */
async function tools(): Promise<string> {
  const dir = await fakeClis(['claude']);
  const npmCli = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  const scripts = { node: `exec "${process.execPath}" "$@"`, npm: `exec "${process.execPath}" "${npmCli}" "$@"` };
  for (const [name, body] of Object.entries(scripts)) {
    await writeFile(join(dir, name), `#!/bin/sh\n${body}\n`);
    await chmod(join(dir, name), 0o755);
  }
  return dir;
}

/** The project: `npm test` loads the vendored dependency and checks src/sum.js, which is wrong until the worker fixes it. */
async function nodeProject(): Promise<string> {
  const pkgDir = await tempDir('sv-setup-dep-');
  await writeFiles(pkgDir, {
    'package.json': JSON.stringify({ name: 'add-two', version: '1.0.0', main: 'index.js' }),
    'index.js': 'module.exports = (a, b) => a + b;\n',
  });
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  await mkdir(join(repo, 'vendor'));
  execFileSync(process.execPath, [realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim()), 'pack', '--silent', '--pack-destination', join(repo, 'vendor')], { cwd: pkgDir, stdio: 'ignore' });
  await writeFiles(repo, {
    'package.json': JSON.stringify({ name: 'demo', version: '1.0.0', private: true, scripts: { test: 'node test.js' }, dependencies: { 'add-two': 'file:vendor/add-two-1.0.0.tgz' } }, null, 2),
    'test.js': "const add = require('add-two');\nconst sum = require('./src/sum.js');\nif (add(2, 3) !== 5 || sum(2, 3) !== 5) { console.error('sum is wrong'); process.exit(1); }\nconsole.log('ok');\n",
    'src/sum.js': 'module.exports = (a, b) => a - b;\n',
  });
  const npmCli = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  execFileSync(process.execPath, [npmCli, 'install', '--package-lock-only', '--offline', '--no-audit', '--no-fund', '--silent'], { cwd: repo, stdio: 'ignore', env: { ...process.env, npm_config_cache: join(pkgDir, 'cache') } });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'a node project');
  return repo;
}

const WORKER_FIX = {
  edits: { 'src/sum.js': 'module.exports = (a, b) => a + b;\n' },
  commit: false,
  reply: 'role: worker\ntask_id: {{TASK_ID}}\nstatus: pass\ngit_range: {{GIT_RANGE}}\nfiles_changed: src/sum.js\n\nFixed the sum.\n',
};

describe('workflow set-up, from the binary', binarySuite(), () => {
  let box: Sandbox;
  let toolDir: string;
  before(async () => {
    box = await makeSandbox();
    toolDir = await tools();
  });

  async function run(repo: string, yaml: string, script: string) {
    const file = join(repo, '..', `${repo.split('/').pop()}-plan.yaml`);
    await writeFile(file, yaml);
    const env = { PATH: `${toolDir}:${box.path}`, FAKE_CLI_SCRIPT: script, SUPERVISOR_KILL_GRACE_MS: '300', SUPERVISOR_RETRY_BACKOFF_MS: '10', npm_config_cache: join(script, '.npm-cache') };
    const ran = await box.run(['workflow', 'run', file, '--json'], { cwd: repo, env });
    try {
      return { code: ran.code, result: JSON.parse(ran.stdout) as Result, stderr: ran.stderr };
    } catch {
      throw new Error(`stdout is not JSON (exit ${ran.code}):\n${ran.stdout}\n${ran.stderr}`);
    }
  }

  const plan = (extra: string) => `name: node project\n${extra}gates: [npm test]\ntasks:\n  - id: fix\n    title: fix the sum\n    task: Make sum add.\n    cli: claude\n    review: none\n    max_rounds: 1\n    gates: [npm test]\n`;

  it('with setup: [npm ci --offline] the gates pass, and neither node_modules nor a copied .env is committed', async () => {
    const repo = await nodeProject();
    await writeFile(join(repo, 'local.env'), 'SECRET_FOR_TESTS=copied-not-committed\n'); // untracked, copied in
    await writeFile(join(repo, 'README.local.md'), 'copied-readme-marker\n'); // the worker packs README*: a copy is never packed
    const before = snapshotCheckout(repo);
    const script = await tempDir('sv-setup-script-');
    await writeFile(join(script, 'worker.json'), JSON.stringify(WORKER_FIX));
    const { code, result, stderr } = await run(repo, plan('setup: [npm ci --offline --no-audit --no-fund]\ncopy: [local.env, README.local.md]\n'), script);
    assert.equal(code, 0, `${stderr}\n${JSON.stringify(result, null, 2)}`);
    assert.equal(result.status, 'pass');
    assert.equal(result.gates.passed, true);
    const files = git(repo, 'ls-tree', '-r', '--name-only', result.branch).trim().split('\n');
    assert.ok(files.includes('src/sum.js'));
    assert.ok(!files.some((f) => f.startsWith('node_modules/') || f === 'local.env' || f === 'README.local.md'), files.join(', '));
    const prompt = readFileSync(join(repo, '.supervisor', 'runs', result.tasks[0]!.runs[0]!.run_id, 'prompt.md'), 'utf8');
    assert.match(prompt, /# demo/); // README.md is packed
    assert.ok(!prompt.includes('copied-readme-marker'), 'a copied file is never packed');
    assert.match(git(repo, 'show', `${result.branch}:src/sum.js`), /a \+ b/);
    assert.ok(result.notices.some((n) => /copied local\.env, README\.local\.md from your checkout/.test(n)), result.notices.join('\n'));
    // Set-up's files are not the worker's: no "the run wrote ignored file node_modules/" (issue 28 item 9).
    assert.ok(!result.notices.some((n) => /ignored file/.test(n)), result.notices.join('\n'));
    const events = readFileSync(join(repo, '.supervisor', 'workflows', result.workflow_id, 'events.jsonl'), 'utf8');
    assert.match(events, /"kind":"setup","task":"fix","step":"command_finished","path":"[^"]+","command":"npm ci --offline --no-audit --no-fund","exit_code":0/);
    assertCheckoutUnchanged(repo, before);
  });

  it('without set-up the same gate fails', async () => {
    const repo = await nodeProject();
    const script = await tempDir('sv-setup-script-');
    await writeFile(join(script, 'worker.json'), JSON.stringify(WORKER_FIX));
    const { result } = await run(repo, plan(''), script);
    assert.notEqual(result.status, 'pass');
    assert.notEqual(result.tasks[0]!.status, 'integrated');
    assert.match(result.tasks[0]!.issues.join('\n'), /npm test/);
  });

  it('a failing set-up ends the task error with the command and the end of its output; no CLI runs', async () => {
    const repo = await nodeProject();
    const script = await tempDir('sv-setup-script-');
    const { result } = await run(repo, plan('setup: ["echo preparing; echo the registry is down >&2; exit 3"]\n'), script);
    assert.equal(result.tasks[0]!.status, 'error');
    const issue = result.tasks[0]!.issues.join('\n');
    assert.match(issue, /set-up command `echo preparing; echo the registry is down >&2; exit 3` exited 3/);
    assert.match(issue, /the registry is down/);
    assert.deepEqual(result.tasks[0]!.runs, []);
    assert.ok(!existsSync(join(script, '.calls.jsonl')), 'no CLI ran');
  });
});
