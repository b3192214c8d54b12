import assert from 'node:assert/strict';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import codex from '../../../plugins/adapters/codex.ts';
import { git, makeRepo } from '../../helpers/git-repo.ts';
import { capture, context, processResult, request, SCHEMA } from './helpers.ts';

const QUIET = ['-c', 'check_for_update_on_startup=false', '-c', 'analytics.enabled=false'];

describe('codex adapter: command()', () => {
  it("a git command among the allowed ones makes the worktree's admin folder and the common .git writable in codex's sandbox", async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const worktree = join(repo, '.supervisor', 'worktrees', 'run-1');
    git(repo, 'worktree', 'add', '-q', '-b', 'supervisor/run-1', worktree);
    const scratchDir = await mkdtemp(join(tmpdir(), 'sv-codex-'));
    try {
      const withGit = await codex.command(request({ cwd: worktree, scratchDir, allowEdits: true, allowedCommands: ['npm test', 'git commit'] }), context());
      const common = realpathSync(join(repo, '.git'));
      assert.ok(withGit.args.includes(`sandbox_workspace_write.writable_roots=${JSON.stringify([join(common, 'worktrees', 'run-1'), common])}`), withGit.args.join(' '));
      const without = await codex.command(request({ cwd: worktree, scratchDir, allowEdits: true, allowedCommands: ['npm test'] }), context());
      assert.ok(!without.args.some((a) => a.startsWith('sandbox_workspace_write')), 'no git command: nothing beyond the workspace');
    } finally {
      await rm(scratchDir, { recursive: true, force: true });
    }
  });

  it("takes the git folders the core recorded, not what the worktree's .git file says by then (a CLI can rewrite it)", async () => {
    const repo = await makeRepo({ 'a.js': '1\n' });
    const worktree = join(repo, '.supervisor', 'worktrees', 'run-1');
    git(repo, 'worktree', 'add', '-q', '-b', 'supervisor/run-1', worktree);
    const common = realpathSync(join(repo, '.git'));
    const recorded = { admin: join(common, 'worktrees', 'run-1'), common };
    const elsewhere = await mkdtemp(join(tmpdir(), 'sv-codex-elsewhere-'));
    writeFileSync(join(worktree, '.git'), `gitdir: ${elsewhere}\n`);
    const scratchDir = await mkdtemp(join(tmpdir(), 'sv-codex-'));
    try {
      const spec = await codex.command(request({ cwd: worktree, git: recorded, scratchDir, allowEdits: true, allowedCommands: ['git commit'] }), context());
      assert.ok(spec.args.includes(`sandbox_workspace_write.writable_roots=${JSON.stringify([recorded.admin, common])}`), spec.args.join(' '));
      assert.ok(!spec.args.join(' ').includes(elsewhere), 'the rewritten .git is not followed');
    } finally {
      await rm(scratchDir, { recursive: true, force: true });
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('runs codex exec --json --skip-git-repo-check with the prompt on stdin ("-"), TMPDIR in its scratch folder', async () => {
    const scratchDir = await mkdtemp(join(tmpdir(), 'sv-codex-'));
    try {
      const spec = await codex.command(request({ prompt: 'Do it.', scratchDir }), context());
      // Codex refuses its apply_patch helper when its home is under TMPDIR: the attempt's own folder never holds it.
      assert.deepEqual(spec, { args: ['exec', '--json', '--skip-git-repo-check', ...QUIET, '-'], stdin: 'Do it.', env: { TMPDIR: join(scratchDir, 'tmp') } });
      assert.ok(existsSync(join(scratchDir, 'tmp')));
    } finally {
      await rm(scratchDir, { recursive: true, force: true });
    }
  });

  it('maps model, edits and the schema file; role flags come before the final "-"', async () => {
    const scratchDir = await mkdtemp(join(tmpdir(), 'sv-codex-'));
    const spec = await codex.command(request({ scratchDir, model: 'o4', allowEdits: true, outputSchema: SCHEMA, flags: ['-c', 'model_reasoning_effort=high'] }), context());
    assert.deepEqual(spec.args, [
      'exec', '--json', '--skip-git-repo-check', ...QUIET,
      '--model', 'o4',
      '--sandbox', 'workspace-write',
      '--output-schema', join(scratchDir, 'codex-output-schema.json'),
      '-c', 'model_reasoning_effort=high',
      '-',
    ]);
  });

  it("inside supervisor's sandbox an editing role lifts codex's own (its nested bwrap cannot start there); a reviewer gets none", async () => {
    const scratchDir = await mkdtemp(join(tmpdir(), 'sv-codex-'));
    const editing = await codex.command(request({ scratchDir, allowEdits: true, sandboxed: true }), context());
    const reviewing = await codex.command(request({ scratchDir, allowEdits: false, sandboxed: true }), context());
    await rm(scratchDir, { recursive: true, force: true });
    assert.deepEqual(editing.args.slice(editing.args.indexOf('--sandbox'), editing.args.indexOf('--sandbox') + 2), ['--sandbox', 'danger-full-access']);
    assert.ok(!reviewing.args.includes('--sandbox'));
  });

  it("inside supervisor's sandbox a read-only role that was allowed commands runs them inside ours (codex's own cannot start there); outside, or with none allowed, it keeps codex's read-only default", async () => {
    const scratchDir = await mkdtemp(join(tmpdir(), 'sv-codex-'));
    const sandboxOf = async (over: Parameters<typeof request>[0]) => {
      const args = (await codex.command(request({ scratchDir, allowEdits: false, ...over }), context())).args;
      return args.includes('--sandbox') ? args[args.indexOf('--sandbox') + 1] : null;
    };
    const cases = [
      await sandboxOf({ sandboxed: true, allowedCommands: ['npm test'] }),
      await sandboxOf({ sandboxed: false, allowedCommands: ['npm test'] }),
      await sandboxOf({ sandboxed: true, allowedCommands: [] }),
    ];
    await rm(scratchDir, { recursive: true, force: true });
    assert.deepEqual(cases, ['danger-full-access', null, null]);
  });

  it('codex reads the prompt from stdin with "-", not --stdin (a flag codex does not have)', async () => {
    const scratchDir = await mkdtemp(join(tmpdir(), 'sv-codex-'));
    const spec = await codex.command(request({ scratchDir }), context());
    await rm(scratchDir, { recursive: true, force: true });
    assert.ok(!spec.args.includes('--stdin'));
    assert.equal(spec.args.at(-1), '-');
    assert.equal(codex.acceptsOutputSchema, true);
  });
});

describe('codex adapter: --output-schema', () => {
  const schema = {
    name: 'implementation',
    file: '/unused.json',
    schema: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['SUCCESS', 'FAILED'] }, files: { type: 'array', items: { type: 'string' }, default: [] }, note: { type: ['string', 'null'] } },
    },
  };

  it("hands codex a strict-mode schema: every property required, optional ones nullable, no defaults", async () => {
    const scratchDir = await mkdtemp(join(tmpdir(), 'sv-codex-'));
    const spec = await codex.command(request({ scratchDir, outputSchema: schema }), context());
    const file = spec.args[spec.args.indexOf('--output-schema') + 1]!;
    const strict = JSON.parse(await readFile(file, 'utf8'));
    assert.deepEqual(strict.required, ['status', 'files', 'note']);
    assert.equal(strict.additionalProperties, false);
    assert.deepEqual(strict.properties.files, { type: ['array', 'null'], items: { type: 'string' } });
    assert.deepEqual(strict.properties.note, { type: ['string', 'null'] });
  });

  it('the bare JSON answer codex gives under a schema becomes the structured answer, forced nulls dropped', async () => {
    const stdout = [
      '{"type":"thread.started","thread_id":"t-1"}',
      '{"type":"turn.started"}',
      '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"{\\"status\\":\\"SUCCESS\\",\\"files\\":null,\\"note\\":null}"}}',
      '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5}}',
    ].join('\n');
    const extraction = await codex.extract(processResult({ stdout }), request({ outputSchema: schema }), context());
    assert.deepEqual(extraction.structured, { status: 'SUCCESS', note: null });
  });
});

describe('codex adapter: where the seeds guessed wrong', () => {
  it('codex has no result event: text is the last agent_message', async () => {
    const stdout = [
      '{"type":"thread.started","thread_id":"t-1"}',
      '{"type":"turn.started"}',
      '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"Looking at the files first."}}',
      '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a\\n","exit_code":0,"status":"completed"}}',
      '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Final answer"}}',
      '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3,"reasoning_output_tokens":1}}',
    ].join('\n');
    assert.doesNotMatch(stdout, /"type":"result"/);
    const got = await codex.extract(processResult({ stdout }), request(), context());
    assert.equal(got.text, 'Final answer');
    assert.deepEqual([got.metrics.inputTokens, got.metrics.cachedTokens, got.metrics.outputTokens, got.metrics.sessionId], [10, 4, 3, 't-1']);
  });

  it('codex exits 0 on an empty reply: empty_output, not success', async () => {
    const got = await codex.extract(processResult({ stdout: await capture('codex', 'exec-json-empty', 'stdout') }), request(), context());
    assert.equal(got.failure?.class, 'empty_output');
  });
});

describe('codex adapter: extract()', () => {
  it('has no cost (null, never 0), measures the duration, and reports the model it asked for', async () => {
    const got = await codex.extract(processResult({ stdout: await capture('codex', 'exec-json-ok', 'stdout'), durationMs: 777 }), request({ model: 'gpt-5' }), context());
    assert.deepEqual([got.metrics.costUsd, got.metrics.durationMs, got.metrics.model], [null, 777, 'gpt-5']);
  });

  it('turn.failed is an api_error with the HTTP status named in the message', async () => {
    const got = await codex.extract(processResult({ stdout: await capture('codex', 'exec-json-http429', 'stdout'), exitCode: 1 }), request(), context());
    assert.deepEqual([got.failure?.class, got.failure?.httpStatus], ['api_error', 429]);
  });

  it('"Reconnecting..." errors followed by turn.completed are not a failure', async () => {
    const stdout = [
      '{"type":"thread.started","thread_id":"t-2"}',
      '{"type":"turn.started"}',
      '{"type":"error","message":"Reconnecting... 1/5 (stream disconnected before completion)"}',
      '{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"ok"}}',
      '{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}',
    ].join('\n');
    const got = await codex.extract(processResult({ stdout }), request(), context());
    assert.deepEqual([got.text, got.failure], ['ok', undefined]);
  });

  it('an item of type error is a warning, not a failure', async () => {
    const stdout = await capture('codex', 'exec-json-ok', 'stdout');
    assert.match(stdout, /"type":"error","message":"Model metadata/);
    assert.equal((await codex.extract(processResult({ stdout }), request(), context())).failure, undefined);
  });
});

describe('codex adapter: a turn that never finished', () => {
  const started = ['{"type":"thread.started","thread_id":"t-3"}', '{"type":"turn.started"}', '{"type":"error","message":"Reconnecting... 2/5"}'].join('\n');

  it('a non-zero exit mid-turn is nonzero_exit (retried), not interrupted: only the core decides that', async () => {
    for (const exit of [{ exitCode: 1 }, { exitCode: null, signal: 'SIGKILL' }]) {
      const got = await codex.extract(processResult({ stdout: started, stderr: 'Error: stream closed', ...exit }), request(), context());
      assert.equal(got.failure?.class, 'nonzero_exit', JSON.stringify(exit));
      assert.match(got.failure?.detail ?? '', exit.exitCode === 1 ? /exit code 1.*last error: Reconnecting/ : /signal SIGKILL/);
    }
  });

  it("the core's own flags decide: interrupted and timeout", async () => {
    const interrupted = await codex.extract(processResult({ stdout: started, exitCode: null, signal: 'SIGTERM', interrupted: true }), request(), context());
    const timedOut = await codex.extract(processResult({ stdout: started, exitCode: null, signal: 'SIGKILL', timedOut: true }), request(), context());
    assert.deepEqual([interrupted.failure?.class, timedOut.failure?.class], ['interrupted', 'timeout']);
  });

  it('exit 0 without turn.completed or turn.failed is invalid_envelope', async () => {
    const got = await codex.extract(processResult({ stdout: started, exitCode: 0 }), request(), context());
    assert.equal(got.failure?.class, 'invalid_envelope');
  });
});
