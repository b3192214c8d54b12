/**
 * Checks before spending: `workflow check` and `workflow run` resolve the CLI of every run the
 * plan will make and refuse (exit 2, naming task, role and CLI) a plan that needs a CLI that is
 * not installed, before any CLI starts; `--dry-run` shows each run's resolved CLI and model.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';
import { FAKE_BIN } from './_run.ts';

/** PATH with only the fake claude (no codex), node and the system's tools. */
async function onlyClaude(): Promise<string> {
  const dir = await tempDir('sv-only-claude-');
  await symlink(join(FAKE_BIN, 'claude'), join(dir, 'claude'));
  return [dir, dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter);
}

const PLAN = `name: needs codex
tasks:
  - id: t1
    title: first
    task: Do the first thing.
    cli: claude
    review: spec-only
  - id: t2
    title: second
    task: Do the second thing.
    model: gpt-5
    review: spec-only
`;

describe('workflow checks before spending', () => {
  it('a plan needing a missing CLI: check and run exit 2 naming task, role and CLI, and no CLI was started', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const plan = join(await tempDir('sv-plan-'), 'plan.yaml');
    await writeFile(plan, PLAN);
    const marker = join(await tempDir('sv-marker-'), 'cli-calls.jsonl');
    const env = { PATH: await onlyClaude(), FAKE_CLI_LOG: marker };
    const check = await runCli(['workflow', 'check', plan], { cwd: repo, env });
    assert.equal(check.code, 2, check.stderr);
    assert.match(check.stderr, /WORKFLOW_PREFLIGHT/);
    assert.match(check.stderr, /task "t2", role worker, CLI codex: the CLI codex is not runnable here: codex \(not found on PATH\)/);
    assert.match(check.stderr, /task "t2", role spec-reviewer, CLI codex/);
    assert.doesNotMatch(check.stderr, /task "t1"/, 't1 runs on claude, which is there');
    const run = await runCli(['workflow', 'run', plan, '--json'], { cwd: repo, env });
    assert.equal(run.code, 2, run.stderr);
    const error = (JSON.parse(run.stderr) as { error: { code: string; details: { task: string; role: string; cli: string } } }).error;
    assert.deepEqual([error.code, error.details.task, error.details.role, error.details.cli], ['WORKFLOW_PREFLIGHT', 't2', 'worker', 'codex']);
    assert.equal(existsSync(marker), false, 'no CLI was started (the fake claude logs every run)');
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*').trim(), '', 'no branch was made');
    assert.equal(existsSync(join(repo, '.supervisor', 'workflows')), false, 'no workflow state was written');
    // With the model routed to the CLI that is there, the same plan checks clean.
    const routed = await runCli(['workflow', 'check', plan, '--cli', 'claude'], { cwd: repo, env });
    assert.equal(routed.code, 0, routed.stderr);
  });

  it('--dry-run shows each run\'s resolved CLI and model: the model table over a role whose own CLI differs, the role\'s own CLI by name', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    await mkdir(join(repo, '.supervisor', 'roles'), { recursive: true });
    // A reviewer whose own CLI is gemini, with a model of its own.
    await writeFile(join(repo, '.supervisor', 'roles', 'gem-reviewer.yaml'), 'extends: spec-reviewer\ncli: gemini\nx-model: gemini-2.5-pro\n');
    const plan = join(await tempDir('sv-plan-'), 'plan.yaml');
    await writeFile(plan, `name: routing\ntasks:\n  - id: routed\n    title: routed\n    task: x\n    model: gpt-5\n    reviewers: [gem-reviewer]\n  - id: own\n    title: own\n    task: y\n    reviewers: [gem-reviewer]\n`);
    const run = await runCli(['workflow', 'run', plan, '--dry-run', '--json'], { cwd: repo, trust: true });
    // The plan is shown, and refused as run refuses it (none of these CLIs is on this PATH).
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /WORKFLOW_PREFLIGHT/);
    const dry = JSON.parse(run.stdout) as { tasks: { id: string; cli: Record<string, string>; models: Record<string, string | null> }[] };
    const [routed, own] = dry.tasks;
    // worker's own CLI is claude, gem-reviewer's gemini: gpt-5 routes both to codex, with that model.
    assert.deepEqual(routed!.cli, { worker: 'codex', 'gem-reviewer': 'codex' });
    assert.deepEqual(routed!.models, { worker: 'gpt-5', 'gem-reviewer': 'gpt-5' });
    // No model: each role's own CLI and model, by name.
    assert.deepEqual(own!.cli, { worker: 'claude', 'gem-reviewer': 'gemini' });
    assert.deepEqual(own!.models, { worker: null, 'gem-reviewer': 'gemini-2.5-pro' });
    const text = await runCli(['workflow', 'run', plan, '--dry-run'], { cwd: repo, trust: true });
    assert.doesNotMatch(text.stdout, /the role's own/);
    assert.match(text.stdout, /gem-reviewer \(gemini, gemini-2\.5-pro\)/);
  });
});
