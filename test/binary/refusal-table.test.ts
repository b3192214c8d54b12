/**
 * The refusal table (issue 26 item 1): each refusal through the command line (the built binary)
 * and through MCP (the SDK's client over stdio against `supervisor mcp`) ends with the same
 * error code, and nothing was started: no CLI called (the fake logs every call), no workflow
 * folder or branch made, no run recorded.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';
import { connect, fakeClis, type Connection } from './mcp-client.ts';

interface Case {
  name: string;
  code: string;
  /** Makes the repository and what the case needs; returns the two ways to ask. */
  setup(): Promise<{ repo: string; cli: string[]; tool: { name: string; arguments: Record<string, unknown> } }>;
}

const errorCode = (result: CallToolResult) => (JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string } }).error.code;

function runsOf(repo: string): string[] {
  const dir = join(repo, '.supervisor', 'runs');
  return existsSync(dir) ? readdirSync(dir) : [];
}

function workflowsOf(repo: string): string[] {
  const dir = join(repo, '.supervisor', 'workflows');
  return existsSync(dir) ? readdirSync(dir).filter((name) => !name.startsWith('.')) : [];
}

describe('the refusal table: the command line and MCP refuse the same things, starting nothing', binarySuite(), () => {
  let box: Sandbox;
  let fakes: string;
  let marker: string;
  let env: Record<string, string>;
  const open: Connection[] = [];
  const holders: ChildProcess[] = [];
  before(async () => {
    box = await makeSandbox();
    fakes = await fakeClis(['claude']);
    marker = join(await tempDir('sv-refusal-'), 'cli-calls.jsonl');
    env = { PATH: `${fakes}:${box.path}`, FAKE_CLI_LOG: marker, SUPERVISOR_KILL_GRACE_MS: '300' };
  });
  after(async () => {
    for (const c of open) await c.client.close();
    for (const child of holders) child.kill('SIGKILL');
  });

  /** A plan outside the repository (the user's own), relative to nothing. */
  async function ownPlan(yaml: string): Promise<string> {
    const file = join(await tempDir('sv-refusal-plan-'), 'plan.yaml');
    await writeFile(file, yaml);
    return file;
  }

  const cases: Case[] = [
    {
      name: 'a task routed to a CLI that is not installed',
      code: 'WORKFLOW_PREFLIGHT',
      async setup() {
        const repo = await makeRepo({ 'README.md': '# demo\n' });
        const file = await ownPlan('name: missing cli\ntasks:\n  - { id: t1, title: first, task: Do one., cli: claude, review: none }\n  - { id: t2, title: second, task: Do two., cli: codex, review: none }\n');
        return { repo, cli: ['workflow', 'run', file], tool: { name: 'workflow_run', arguments: { file } } };
      },
    },
    {
      name: "an untrusted repository's plan with commands",
      code: 'WORKFLOW_UNTRUSTED_COMMANDS',
      async setup() {
        const repo = await makeRepo({ 'README.md': '# demo\n', 'plan.yaml': `name: gated\ngates: ['touch ${marker}.gate']\ntasks:\n  - { id: t1, title: first, task: Do one., cli: claude, review: none }\n` });
        return { repo, cli: ['workflow', 'run', 'plan.yaml'], tool: { name: 'workflow_run', arguments: { file: 'plan.yaml' } } };
      },
    },
    {
      name: '"*" allowed without a sandbox',
      code: 'WORKFLOW_PREFLIGHT',
      async setup() {
        const repo = await makeRepo({ 'README.md': '# demo\n' });
        const file = await ownPlan('name: any command\ntasks:\n  - { id: t1, title: first, task: Do one., cli: claude, review: none }\n');
        return { repo, cli: ['workflow', 'run', file, '--allow-command', '*'], tool: { name: 'workflow_run', arguments: { file, allow_commands: ['*'] } } };
      },
    },
    {
      name: 'a workflow another process holds (its lock)',
      code: 'WORKFLOW_BUSY',
      async setup() {
        const repo = await makeRepo({ 'README.md': '# demo\n' });
        const file = await ownPlan('name: held\ntasks:\n  - { id: t1, title: first, task: Do one., review: none }\n');
        const first = await box.run(['workflow', 'run', file, '--cli', 'replay', '--json'], { cwd: repo, env });
        const id = (JSON.parse(first.stdout) as { workflow_id: string }).workflow_id;
        // A live process holds the workflow's lock, as a running `workflow run` would.
        const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
        holders.push(holder);
        await writeFile(join(repo, '.supervisor', 'workflows', id, 'lock'), `${JSON.stringify({ pid: holder.pid, start_time: null, acquired_at: new Date().toISOString() })}\n`);
        return { repo, cli: ['workflow', 'resume', id, '--cli', 'claude'], tool: { name: 'workflow_resume', arguments: { id, cli: 'claude' } } };
      },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: ${c.code} from both, nothing started`, async () => {
      const { repo, cli, tool } = await c.setup();
      const runsBefore = runsOf(repo);
      const workflowsBefore = workflowsOf(repo);
      const branchesBefore = git(repo, 'branch', '--list');

      const viaCli = await box.run([...cli, '--json'], { cwd: repo, env });
      assert.equal(viaCli.code, 2, viaCli.stderr);
      assert.equal((JSON.parse(viaCli.stderr) as { error: { code: string } }).error.code, c.code, viaCli.stderr);

      const connection = await connect(box, repo, { env });
      open.push(connection);
      const viaMcp = (await connection.client.callTool(tool)) as CallToolResult;
      assert.equal(viaMcp.isError, true, JSON.stringify(viaMcp));
      assert.equal(errorCode(viaMcp), c.code, JSON.stringify(viaMcp));

      assert.equal(existsSync(marker), false, 'no CLI was started');
      assert.equal(existsSync(`${marker}.gate`), false, "no plan command ran");
      assert.deepEqual(runsOf(repo), runsBefore, 'no run was recorded');
      assert.deepEqual(workflowsOf(repo), workflowsBefore, 'no workflow folder was made');
      assert.equal(git(repo, 'branch', '--list'), branchesBefore, 'no branch was made');
    });
  }
});
