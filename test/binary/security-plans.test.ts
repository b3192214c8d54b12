/**
 * Issue 28 item 6 with issue 27's rules, through the built binary: a plan may set
 * allowed_commands in defaults and per task; they reach the CLI, follow the same grammar, and a
 * plan inside an untrusted repository needs trust for them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/git-repo.ts';
import { binarySuite } from './binary.ts';
import { plan, world } from './_workflow-world.ts';

function errorCode(stderr: string): string {
  return (JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code;
}

const task = (id: string, extra = '') => `  - id: ${id}\n    title: task ${id}\n    task: Do ${id}.\n    cli: claude\n    review: none\n    max_rounds: 1\n${extra}`;

describe("plans' allowed_commands (issue 28 item 6, issue 27)", binarySuite(), () => {
  it('defaults and a task\'s own reach the CLI as its allowed tools', async () => {
    const w = await world();
    const log = join(await tempDir('sv-log-'), 'calls.jsonl');
    const file = await plan(w, `name: cmds\ndefaults:\n  allowed_commands: ["npm test"]\ntasks:\n${task('a')}${task('b', '    allowed_commands: ["cargo build"]\n')}`);
    const out = await w.box.run(['workflow', 'run', file, '--json'], { cwd: w.repo, env: { ...w.env, FAKE_CLI_LOG: log } });
    assert.equal(out.code, 0, out.stderr);
    const calls = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { args: string[]; cwd: string });
    const all = calls.map((c) => c.args.join(' ')).join('\n');
    assert.match(all, /Bash\(npm test:\*\)/);
    assert.match(all, /Bash\(cargo build:\*\)/);
  });

  it('a value outside the grammar: exit 2 ALLOWED_COMMAND_INVALID', async () => {
    const w = await world();
    const file = await plan(w, `name: cmds\ndefaults:\n  allowed_commands: ["x:*),Bash,Bash(y"]\ntasks:\n${task('a')}`);
    const out = await w.box.run(['workflow', 'run', file, '--json'], { cwd: w.repo, env: w.env });
    assert.equal(out.code, 2, out.stderr);
    assert.equal(errorCode(out.stderr), 'ALLOWED_COMMAND_INVALID');
  });

  it("a plan inside an untrusted repository setting allowed_commands: exit 2 WORKFLOW_UNTRUSTED_COMMANDS", async () => {
    const w = await world();
    const file = join(w.repo, 'plan.yaml');
    await writeFile(file, `name: cmds\ntasks:\n${task('a', '    allowed_commands: ["npm test"]\n')}`);
    const refused = await w.box.run(['workflow', 'run', file, '--json'], { cwd: w.repo, env: w.env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(errorCode(refused.stderr), 'WORKFLOW_UNTRUSTED_COMMANDS');
  });
});
