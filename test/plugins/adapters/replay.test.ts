import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadOutputSchema, listOutputSchemas } from '../../../core/output/schemas.ts';
import { parseExtraction } from '../../../core/output/parse-extraction.ts';
import { emptyMetrics, type CommandRequest, type Extraction } from '../../../core/plugin-api/index.ts';
import { builtinEntries } from '../../../core/plugins/load.ts';
import { runProcess } from '../../../core/process/run-process.ts';
import { createRegistry } from '../../../core/registry.ts';
import { selfCommand } from '../../../core/self-command.ts';
import replay, { exampleReply, replayEnvelope } from '../../../plugins/adapters/replay.ts';
import { makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { context, processResult, request } from './helpers.ts';

const registry = createRegistry(builtinEntries());

/** command() → a real process (supervisor __emit) → extract(). */
async function runReplay(req: CommandRequest, env: Record<string, string> = {}): Promise<{ extraction: Extraction; args: string[]; notices: string[] }> {
  const ctx = { ...context(env), self: selfCommand() };
  const spec = await replay.command(req, ctx);
  const result = await runProcess({ bin: spec.bin ?? replay.bin, args: spec.args, cwd: req.cwd, env: { ...process.env, ...spec.env }, stdin: spec.stdin, timeoutMs: 30_000 });
  assert.equal(result.exitCode, 0, result.stderr);
  return { extraction: await replay.extract(result, req, ctx), args: spec.args, notices: ctx.notices };
}

async function scratchRequest(overrides: Partial<CommandRequest> = {}): Promise<CommandRequest> {
  const dir = await tempDir('sv-replay-');
  // The engine hands every attempt an existing scratch folder; so does this test.
  await mkdir(join(dir, 'scratch'));
  return request({ scratchDir: join(dir, 'scratch'), cwd: dir, prompt: 'Review README.md please.', ...overrides });
}

describe('replay adapter', () => {
  it('with nothing configured, a real process answers with a fenced JSON example valid against the schema', async () => {
    const schema = loadOutputSchema('review', { baseDir: process.cwd() });
    const req = await scratchRequest({ outputSchema: { ...schema, file: '/unused.json' } });
    const { extraction, args, notices } = await runReplay(req);
    assert.deepEqual(args.slice(-2), ['__emit', join(req.scratchDir, 'replay-envelope-1.json')]);
    assert.match(extraction.text ?? '', /replay adapter/);
    assert.match(extraction.text ?? '', /```json\n\{/);
    assert.equal(extraction.failure, undefined);
    const output = parseExtraction(extraction, { registry, schema, adapter: 'replay' });
    assert.equal(output.status, 'APPROVED');
    assert.deepEqual(output.issues, [], 'no placeholder findings in the offline example');
    assert.equal(extraction.metrics.model, 'replay');
    assert.equal(extraction.metrics.costUsd, 0);
    assert.equal(extraction.metrics.inputTokens, null, 'no model spent tokens: none are reported');
    assert.equal(extraction.metrics.outputTokens, null);
    assert.ok((extraction.metrics.durationMs ?? 0) > 0, 'measured duration');
    assert.match(notices[0] ?? '', /no canned reply for this run/);
  });

  it('gets the role\'s output schema from the engine and answers a whole run with an example of it', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const run = await runCli(['run', 'planner', '--cli', 'replay', '--task', 'Plan input validation', '--target', 'math.js', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { status: string; output: { phases?: unknown } };
    assert.equal(result.status, 'pass');
    assert.ok(Array.isArray(result.output.phases), 'an example built from the plan schema, not the generic default answer');
  });

  it('the default reply fits every built-in output schema', () => {
    for (const name of listOutputSchemas()) {
      const schema = loadOutputSchema(name, { baseDir: process.cwd() });
      const text = exampleReply(request({ outputSchema: { ...schema, file: '/unused.json' } }));
      assert.doesNotThrow(() => parseExtraction({ text, metrics: emptyMetrics() }, { registry, schema, adapter: 'replay' }), name);
    }
  });

  it('SUPERVISOR_REPLAY folder: one file per attempt, sorted by name, the last repeats', async () => {
    const dir = await tempDir('sv-replies-');
    await writeFile(join(dir, '2.md'), 'second');
    await writeFile(join(dir, '10.md'), 'tenth');
    await writeFile(join(dir, '1.md'), 'first');
    await writeFile(join(dir, '.hidden'), 'never');
    const texts: string[] = [];
    for (const attempt of [1, 2, 3, 4]) {
      const spec = await replay.command(await scratchRequest({ attempt, allowEdits: true }), context({ SUPERVISOR_REPLAY: dir }));
      const envelope = JSON.parse(await readFile(spec.args.at(-1) ?? '', 'utf8'));
      texts.push(envelope.result);
    }
    assert.deepEqual(texts, ['first', 'second', 'tenth', 'tenth']);
  });

  it('the canned replies in test/fixtures/replay are valid answers for their schemas', async () => {
    const cases = { 'review-approved.md': 'review', 'review-changes-requested.md': 'review', 'implementation-success.md': 'implementation' };
    for (const [file, name] of Object.entries(cases)) {
      const text = await readFile(fileURLToPath(new URL(`../../fixtures/replay/${file}`, import.meta.url)), 'utf8');
      const schema = loadOutputSchema(name, { baseDir: process.cwd() });
      assert.doesNotThrow(() => parseExtraction({ text, metrics: emptyMetrics() }, { registry, schema, adapter: 'replay' }), file);
    }
  });

  it('the canned folder in test/fixtures/replay: attempt 1 has no JSON, attempt 2 is a valid answer', async () => {
    const schema = loadOutputSchema('implementation', { baseDir: process.cwd() });
    const folder = fileURLToPath(new URL('../../fixtures/replay/no-json-then-valid/', import.meta.url));
    const outcomes = [];
    for (const attempt of [1, 2]) {
      const { extraction } = await runReplay(await scratchRequest({ attempt }), { SUPERVISOR_REPLAY: folder });
      try {
        outcomes.push(parseExtraction(extraction, { registry, schema, adapter: 'replay' }).status);
      } catch (error) {
        outcomes.push((error as { code?: string }).code);
      }
    }
    assert.deepEqual(outcomes, ['PARSE_NO_JSON', 'SUCCESS']);
  });

  it('x-replay on the role, relative to the run folder; SUPERVISOR_REPLAY wins over it', async () => {
    const req = await scratchRequest();
    await mkdir(join(req.cwd, 'replies'), { recursive: true });
    await writeFile(join(req.cwd, 'replies', 'answer.md'), 'from the role ```json\n{"status":"APPROVED"}\n```');
    await writeFile(join(req.cwd, 'env.md'), 'from env');
    const roleReq = { ...req, role: { ...req.role, extensions: { 'x-replay': relative(req.cwd, join(req.cwd, 'replies', 'answer.md')) } } };
    const fromRole = await runReplay(roleReq);
    assert.match(fromRole.extraction.text ?? '', /^from the role/);
    assert.match(fromRole.notices[0] ?? '', /answer\.md/);
    const fromEnv = await replay.command(roleReq, context({ SUPERVISOR_REPLAY: join(req.cwd, 'env.md') }));
    assert.equal(JSON.parse(await readFile(fromEnv.args.at(-1) ?? '', 'utf8')).result, 'from env');
  });

  it('a replay source that does not exist is REPLAY_NOT_FOUND; an empty folder REPLAY_EMPTY', async () => {
    const req = await scratchRequest();
    await assert.rejects(Promise.resolve(replay.command(req, context({ SUPERVISOR_REPLAY: 'no/such/file.md' }))), { code: 'REPLAY_NOT_FOUND' });
    const empty = await tempDir('sv-empty-');
    await assert.rejects(Promise.resolve(replay.command(req, context({ SUPERVISOR_REPLAY: empty }))), { code: 'REPLAY_EMPTY' });
  });

  it('reads its own envelope like a claude result (an empty reply is empty_output)', async () => {
    const got = await replay.extract(processResult({ stdout: JSON.stringify(replayEnvelope('', 'p', null)) }), request(), context());
    assert.equal(got.failure?.class, 'empty_output');
  });

  it('answers a whole run of every built-in role offline, the v2 roles included (the parser supplies the example)', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const roles = (await readdir(fileURLToPath(new URL('../../../roles', import.meta.url)))).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5));
    assert.ok(roles.includes('worker') && roles.includes('spec-reviewer') && roles.includes('code-quality-reviewer'), roles.join(', '));
    for (const role of roles) {
      const run = await runCli(['run', role, '--cli', 'replay', '--task', 'Validate the arguments of add()', '--target', 'math.js', '--json'], { cwd: repo });
      const result = JSON.parse(run.stdout) as { status: string; failure: unknown; output: unknown };
      // A valid answer every time; oneshot's llm-chat answer has `action`, not `status`, so its
      // run status is the status table's business, not replay's.
      assert.equal(result.failure, null, `${role}: ${JSON.stringify(result.failure)} ${run.stderr}`);
      assert.ok(result.output, role);
      if (role !== 'oneshot') assert.equal(result.status, 'pass', role);
    }
  });

  it('a workflow replay folder answers per task, role and round: <task>/<role>-<round>, <task>/<role>, <role>-<round>, <role>, then the default', async () => {
    const dir = await tempDir('sv-replies-');
    await mkdir(join(dir, 't1'));
    await writeFile(join(dir, 't1', 'worker-2.md'), 't1 worker round 2');
    await writeFile(join(dir, 't1', 'worker.md'), 't1 worker');
    await writeFile(join(dir, 'worker-3.md'), 'any worker round 3');
    await writeFile(join(dir, 'spec-reviewer.md'), 'any spec reviewer');
    const reply = async (task: string, role: string, round: number, exampleAnswer?: string) => {
      const req = await scratchRequest({ role: { name: role, baseRole: null, extensions: {} }, ...(exampleAnswer ? { exampleAnswer } : {}) });
      const env = { SUPERVISOR_REPLAY: dir, SUPERVISOR_TASK_ID: task, SUPERVISOR_ROLE: role, SUPERVISOR_ROUND: String(round) };
      const spec = await replay.command(req, context(env));
      return JSON.parse(await readFile(spec.args[spec.args.indexOf('__emit') + 1] ?? '', 'utf8')).result as string;
    };
    assert.equal(await reply('t1', 'worker', 2), 't1 worker round 2');
    assert.equal(await reply('t1', 'worker', 1), 't1 worker');
    assert.equal(await reply('t2', 'worker', 3), 'any worker round 3');
    assert.equal(await reply('t2', 'spec-reviewer', 1), 'any spec reviewer');
    assert.equal(await reply('t2', 'code-quality-reviewer', 1, 'role: code-quality-reviewer\n'), 'role: code-quality-reviewer\n');
  });

  it('a canned change (.patch) is found by the same look-up as replies, alone or beside a reply, and only for a role that edits files', async () => {
    const dir = await tempDir('sv-replies-');
    await mkdir(join(dir, 't1'));
    await writeFile(join(dir, 't1', 'worker-2.patch'), 'p t1 round 2');
    await writeFile(join(dir, 't1', 'worker.md'), 't1 worker');
    await writeFile(join(dir, 'worker.patch'), 'p any worker');
    const patchOf = async (task: string, role: string, round: number, allowEdits = true) => {
      const req = await scratchRequest({ role: { name: role, baseRole: null, extensions: {} }, allowEdits });
      const env = { SUPERVISOR_REPLAY: dir, SUPERVISOR_TASK_ID: task, SUPERVISOR_ROLE: role, SUPERVISOR_ROUND: String(round) };
      const spec = await replay.command(req, context(env));
      const at = spec.args.indexOf('--apply');
      return { patch: at < 0 ? null : await readFile(spec.args[at + 1]!, 'utf8'), reply: JSON.parse(await readFile(spec.args[spec.args.indexOf('__emit') + 1]!, 'utf8')).result as string };
    };
    assert.deepEqual(await patchOf('t1', 'worker', 2), { patch: 'p t1 round 2', reply: 't1 worker' });
    assert.deepEqual(await patchOf('t1', 'worker', 1), { patch: 'p any worker', reply: 't1 worker' });
    assert.equal((await patchOf('t2', 'worker', 1)).patch, 'p any worker', 'alone, with the default answer');
    assert.equal((await patchOf('t2', 'spec-reviewer', 1, false)).patch, null);
    await writeFile(join(dir, 'spec-reviewer.patch'), 'p review');
    await assert.rejects(patchOf('t2', 'spec-reviewer', 1, false), (e: { code?: string }) => e.code === 'REPLAY_PATCH_READ_ONLY');
  });

  it('in a folder of numbered replies, <n>.patch beside <n>.md is attempt n\'s change, and never a reply', async () => {
    const dir = await tempDir('sv-replies-');
    await writeFile(join(dir, '1.md'), 'first');
    await writeFile(join(dir, '1.patch'), 'p first');
    await writeFile(join(dir, '2.md'), 'second');
    const spec = async (attempt: number) => replay.command(await scratchRequest({ attempt, allowEdits: true }), context({ SUPERVISOR_REPLAY: dir }));
    const one = await spec(1);
    assert.equal(await readFile(one.args[one.args.indexOf('--apply') + 1]!, 'utf8'), 'p first');
    const two = await spec(2);
    assert.equal(two.args.includes('--apply'), false);
    assert.equal(JSON.parse(await readFile(two.args[two.args.indexOf('__emit') + 1]!, 'utf8')).result, 'second');
  });

  it('__emit applies the canned change with git in the folder it runs in before answering; again (a retry) it leaves it; one that does not apply fails the attempt', async () => {
    const repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const dir = await tempDir('sv-replies-');
    await writeFile(join(dir, 'worker.patch'), ['--- a/math.js', '+++ b/math.js', '@@ -1 +1,2 @@', ' export const add = (a, b) => a + b;', '+export const sub = (a, b) => a - b;', ''].join('\n'));
    await mkdir(join(repo, '.scratch'));
    const req = request({ scratchDir: join(repo, '.scratch'), cwd: repo, prompt: 'Add sub().', role: { name: 'worker', baseRole: null, extensions: {} }, allowEdits: true });
    const env = { SUPERVISOR_REPLAY: dir, SUPERVISOR_ROLE: 'worker' };
    await runReplay(req, env);
    assert.equal(await readFile(join(repo, 'math.js'), 'utf8'), 'export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n');
    await runReplay({ ...req, attempt: 2 }, env);
    assert.equal(await readFile(join(repo, 'math.js'), 'utf8'), 'export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n', 'applied once');
    await writeFile(join(repo, 'math.js'), 'something else\n');
    const spec = await replay.command({ ...req, attempt: 3 }, { ...context(env), self: selfCommand() });
    const failed = await runProcess({ bin: spec.bin!, args: spec.args, cwd: repo, env: process.env, timeoutMs: 30_000 });
    assert.equal(failed.exitCode, 1);
    assert.match(failed.stderr, /does not apply/);
  });
});
