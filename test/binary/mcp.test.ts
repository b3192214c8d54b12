/**
 * `supervisor mcp` from the built binary, driven by the MCP SDK's own client over stdio: the
 * tools and their schemas, --read-only and --allow-tool, `run` with the replay adapter
 * (structured result, progress, resources), tool errors as `isError` results, and nothing but
 * protocol on stdout.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResourceListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';
import { connect, until, type Connection } from './mcp-client.ts';

const ALL_TOOLS = ['run', 'workflow_check', 'workflow_run', 'workflow_status', 'workflow_show', 'workflow_approve', 'workflow_reject', 'workflow_resume', 'runs_list', 'runs_show', 'roles_list', 'roles_show'];
const READ_ONLY_TOOLS = ['workflow_check', 'workflow_status', 'workflow_show', 'runs_list', 'runs_show', 'roles_list', 'roles_show'];

const errorOf = (result: CallToolResult) => (JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string; message: string } }).error;

describe('supervisor mcp, from the binary', binarySuite(), () => {
  let box: Sandbox;
  let repo: string;
  let scratch: string;
  const open: Connection[] = [];
  before(async () => {
    box = await makeSandbox();
    repo = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    scratch = await tempDir('sv-mcp-');
  });
  after(async () => {
    for (const c of open) await c.client.close();
  });
  const start = async (args: string[] = []) => {
    const c = await connect(box, repo, { args });
    open.push(c);
    return c;
  };

  it('lists every tool with input and output schemas, and says the repository is untrusted', async () => {
    const { client, protocolErrors } = await start();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ALL_TOOLS);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
    }
    const run = tools.find((t) => t.name === 'run')!;
    assert.deepEqual(run.inputSchema.required, ['role', 'task']);
    assert.equal(run.annotations?.readOnlyHint, false);
    assert.match(client.getInstructions() ?? '', /NOT trusted: none of its own code runs/);
    assert.match(client.getInstructions() ?? '', /supervisor trust /);
    assert.deepEqual(protocolErrors, []);
  });

  it('--read-only offers only the tools that start nothing; --allow-tool narrows the set', async () => {
    const readOnly = await start(['--read-only']);
    assert.deepEqual((await readOnly.client.listTools()).tools.map((t) => t.name), READ_ONLY_TOOLS);
    assert.match(readOnly.client.getInstructions() ?? '', /Read-only: only tools that start nothing/);
    const trusted = await start(['--trust', '--read-only']);
    assert.match(trusted.client.getInstructions() ?? '', /This repository is trusted: its own plugins, prompt templates and tools run/);
    const narrowed = await start(['--allow-tool', 'run', '--allow-tool', 'runs_show']);
    assert.deepEqual((await narrowed.client.listTools()).tools.map((t) => t.name), ['run', 'runs_show']);
    const both = await start(['--read-only', '--allow-tool', 'run', '--allow-tool', 'runs_list']);
    assert.deepEqual((await both.client.listTools()).tools.map((t) => t.name), ['runs_list']);
  });

  it('an unknown --allow-tool is a usage error before anything is served', async () => {
    const run = await box.run(['mcp', '--allow-tool', 'runz_list', '--json'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.equal((JSON.parse(run.stderr) as { error: { code: string } }).error.code, 'MCP_UNKNOWN_TOOL');
  });

  it('run with cli replay: the result of run --json as structuredContent and text, progress, and the run as a resource', async () => {
    const { client, protocolErrors } = await start();
    let listChanged = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (listChanged += 1));
    const progress: string[] = [];
    const result = (await client.callTool({ name: 'run', arguments: { role: 'reviewer', task: 'Review math.js', targets: ['math.js'], cli: 'replay' } }, undefined, {
      onprogress: (p) => void progress.push(String(p.message)),
    })) as CallToolResult;
    assert.equal(result.isError, undefined);
    const structured = result.structuredContent as { status: string; run_id: string; cli: string; exit_code: number };
    assert.equal(structured.status, 'pass');
    assert.equal(structured.cli, 'replay');
    assert.match(structured.run_id, /reviewer/);
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), structured);
    assert.ok(progress.some((line) => line.startsWith(`run ${structured.run_id}: reviewer via replay`)), progress.join('\n'));
    assert.ok(listChanged >= 1, 'the client heard that the resource list changed');

    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === `supervisor://runs/${structured.run_id}`));
    const read = await client.readResource({ uri: `supervisor://runs/${structured.run_id}` });
    const body = JSON.parse((read.contents[0] as { text: string }).text) as { result: { status: string }; events: { kind: string }[] };
    assert.equal(body.result.status, 'pass');
    assert.ok(body.events.some((e) => e.kind === 'run_started'));

    const shown = (await client.callTool({ name: 'runs_show', arguments: { id: structured.run_id } })) as CallToolResult;
    assert.equal((shown.structuredContent as { result: { status: string } }).result.status, 'pass');
    const listed = (await client.callTool({ name: 'runs_list', arguments: {} })) as CallToolResult;
    assert.equal((listed.structuredContent as { runs: { run_id: string }[] }).runs[0]!.run_id, structured.run_id);
    assert.deepEqual(protocolErrors, []);
  });

  it('a run started from the command line appears as a resource, and the client hears that the list changed', async () => {
    const own = await makeRepo({ 'math.js': 'export const add = (a, b) => a + b;\n' });
    const cli = ['run', 'reviewer', '--cli', 'replay', '--task', 'Review math.js', '--target', 'math.js', '--json'];
    assert.equal((await box.run(cli, { cwd: own })).code, 0);
    const c = await connect(box, own);
    open.push(c);
    let listChanged = 0;
    c.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (listChanged += 1));
    const second = JSON.parse((await box.run(cli, { cwd: own })).stdout) as { run_id: string };
    await until(() => (listChanged > 0 ? true : undefined));
    const { resources } = await c.client.listResources();
    assert.ok(resources.some((r) => r.uri === `supervisor://runs/${second.run_id}`));
  });

  it('a bad role, a bad plan and a bad run id are isError results with the code; the server goes on', async () => {
    const { client, protocolErrors } = await start();
    const badRole = (await client.callTool({ name: 'run', arguments: { role: 'reviewr', task: 'Review', cli: 'replay' } })) as CallToolResult;
    assert.equal(badRole.isError, true);
    assert.equal(errorOf(badRole).code, 'ROLE_NOT_FOUND');
    assert.match(errorOf(badRole).message, /reviewr/);
    const plan = join(scratch, 'bad-plan.yaml');
    await writeFile(plan, 'name: broken\ntasks:\n  - id: a\n    title: A\n    task: Do a.\n    depends_on: [nowhere]\n');
    const badPlan = (await client.callTool({ name: 'workflow_check', arguments: { file: plan } })) as CallToolResult;
    assert.equal(badPlan.isError, true);
    assert.match(errorOf(badPlan).code, /^WORKFLOW_/);
    assert.match(errorOf(badPlan).message, /nowhere/);
    const badRun = (await client.callTool({ name: 'runs_show', arguments: { id: 'nothing-like-this' } })) as CallToolResult;
    assert.equal(badRun.isError, true);
    assert.equal(errorOf(badRun).code, 'RUN_NOT_FOUND');
    const roles = (await client.callTool({ name: 'roles_list', arguments: {} })) as CallToolResult;
    assert.ok((roles.structuredContent as { roles: { name: string }[] }).roles.some((r) => r.name === 'reviewer'));
    const role = (await client.callTool({ name: 'roles_show', arguments: { name: 'reviewer' } })) as CallToolResult;
    assert.equal((role.structuredContent as { name: string }).name, 'reviewer');
    assert.deepEqual(protocolErrors, []);
  });

  it('stdout carries only JSON-RPC messages, through a run that writes notices, and the server exits 0 when stdin ends', async () => {
    const child = spawn(box.binary, ['mcp'], { cwd: repo, env: box.env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const answered = (id: number) => stdout.split('\n').some((line) => line.includes(`"id":${id}`));
    const waitFor = async (id: number) => {
      while (!answered(id)) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await waitFor(1);
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'run', arguments: { role: 'reviewer', task: 'Review math.js', targets: ['math.js'], cli: 'replay' }, _meta: { progressToken: 'p' } } });
    await waitFor(2);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end();
    assert.equal(await exit, 0, stderr);
    const lines = stdout.split('\n').filter((line) => line !== '');
    for (const line of lines) assert.equal((JSON.parse(line) as { jsonrpc: string }).jsonrpc, '2.0', line);
    assert.ok(lines.some((line) => line.includes('notifications/progress')));
    assert.match(stderr, /notice: /, 'the run\'s notices went to stderr');
  });
  it('SIGTERM stops a server whose client is still connected: it exits 143', async () => {
    const child = spawn(box.binary, ['mcp'], { cwd: repo, env: box.env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('mcp: serving')) child.kill('SIGTERM');
    });
    assert.equal(await exit, 143, stderr);
    child.stdin.destroy();
  });
});
