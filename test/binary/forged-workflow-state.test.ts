/**
 * H01 / I4: trust for a plan's commands is decided at each command from the trust store and
 * where the plan really comes from, never from stored state. A repository that commits
 * `.supervisor/workflows/<id>/plan.json` + `events.jsonl` whose `source.file` points outside it is
 * refused before any state is read (STATE_DIR_UNSAFE: tracked state, X01); the same files left
 * untracked (unpacked from an archive, written by a CLI run without a sandbox): `workflow resume
 * <id>`, a bare `workflow resume` and MCP `workflow_resume` refuse (exit 2,
 * WORKFLOW_UNTRUSTED_COMMANDS). Neither runs any of its commands. The same state, resumed by the
 * user who started it (their HOME recorded its plan), continues: the control.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';
import { connect, type Connection } from './mcp-client.ts';

const errorCode = (result: CallToolResult) => (JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string } }).error.code;

describe('forged workflow state in a repository', binarySuite(), () => {
  let box: Sandbox;
  let marker: string;
  let id: string;
  let original: string;
  let victim: string;
  let committed: string;
  let strangerHome: string;
  const open: Connection[] = [];

  before(async () => {
    box = await makeSandbox();
    const outside = await tempDir('sv-forged-');
    marker = join(outside, 'hook-ran');
    const plan = join(outside, 'plan.yaml');
    await writeFile(plan, `name: forged\non_event: ['echo ran > ${marker}']\ntasks:\n  - { id: one, title: One, task: Do one., review: none }\n`);
    // A real workflow of a plan outside the repository, made unfinished (its result gone, as after kill -9).
    original = await makeRepo({ 'README.md': '# demo\n' });
    const run = await box.run(['workflow', 'run', plan, '--cli', 'replay', '--json'], { cwd: original });
    id = (JSON.parse(run.stdout) as { workflow_id: string }).workflow_id;
    assert.equal(existsSync(marker), true, 'the hook runs for its own user');
    await rm(marker);
    await rm(join(original, '.supervisor', 'workflows', id, 'result.json'));
    // A repository that carries that state, for a stranger to clone: untracked, and committed.
    const carrying = async () => {
      const repo = await makeRepo({ 'README.md': '# demo\n' });
      const state = join(repo, '.supervisor', 'workflows', id);
      await mkdir(state, { recursive: true });
      for (const file of ['plan.json', 'events.jsonl']) await cp(join(original, '.supervisor', 'workflows', id, file), join(state, file));
      assert.match(readFileSync(join(state, 'plan.json'), 'utf8'), new RegExp(`"file": "${plan.replaceAll('/', '\\/')}"`));
      return repo;
    };
    victim = await carrying();
    committed = await carrying();
    git(committed, 'add', '-f', '.supervisor');
    git(committed, 'commit', '-qm', 'workflow state');
    strangerHome = await tempDir('sv-stranger-home-');
  });
  after(async () => {
    for (const c of open) await c.client.close();
  });

  for (const args of [['workflow', 'resume', '<id>'], ['workflow', 'resume']]) {
    it(`${args.join(' ')} refuses with a trust code and runs none of its commands`, async () => {
      const out = await box.run([...args.map((a) => (a === '<id>' ? id : a)), '--cli', 'replay', '--json'], { cwd: victim, env: { HOME: strangerHome } });
      assert.equal(out.code, 2, out.stderr);
      assert.equal((JSON.parse(out.stderr) as { error: { code: string } }).error.code, 'WORKFLOW_UNTRUSTED_COMMANDS');
      assert.equal(existsSync(marker), false, 'the stored plan\'s on_event ran');
      assert.equal(git(victim, 'branch', '--list', 'supervisor/*').trim(), '');
    });
  }

  it('committed state is refused before it is read, and none of its commands runs', async () => {
    for (const args of [['workflow', 'resume', id], ['workflow', 'resume']]) {
      const out = await box.run([...args, '--cli', 'replay', '--json'], { cwd: committed, env: { HOME: strangerHome } });
      assert.equal(out.code, 2, out.stderr);
      assert.equal((JSON.parse(out.stderr) as { error: { code: string } }).error.code, 'STATE_DIR_UNSAFE');
      assert.equal(existsSync(marker), false, 'the stored plan\'s on_event ran');
      assert.equal(git(committed, 'branch', '--list', 'supervisor/*').trim(), '');
    }
  });

  it('MCP workflow_resume refuses the same way', async () => {
    const connection = await connect(box, victim, { env: { HOME: strangerHome } });
    open.push(connection);
    const result = (await connection.client.callTool({ name: 'workflow_resume', arguments: { id: 'last', cli: 'replay' } })) as CallToolResult;
    assert.equal(result.isError, true, JSON.stringify(result));
    assert.equal(errorCode(result), 'WORKFLOW_UNTRUSTED_COMMANDS');
    assert.equal(existsSync(marker), false);
  });

  it('the user who started it resumes it, hooks and all (the control)', async () => {
    const out = await box.run(['workflow', 'resume', id, '--cli', 'replay', '--json'], { cwd: original });
    assert.notEqual(out.code, 2, out.stderr);
    assert.equal(existsSync(marker), true, out.stderr);
  });
});
