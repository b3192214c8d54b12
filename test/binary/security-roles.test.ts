/**
 * Issue 27 A01 and S05 (SECURITY.md I4, I5, "Allowed commands"), through the built binary: an
 * untrusted repository's role may not set allowed_commands nor let secrets into the prompt, and
 * every allowed command (role, --allow-command) is a command prefix of plain words.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const APPROVED = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';
const SECRET = 'hunter2-the-users-own-password';

function refusal(stderr: string): { code: string; details: Record<string, unknown> } {
  return (JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string; details: Record<string, unknown> } }).error;
}

describe('A01, S05: what an untrusted role may not set, and the allowed-command grammar (issue 27)', binarySuite(), () => {
  let box: Sandbox;
  let reply: string;
  before(async () => {
    box = await makeSandbox();
    reply = join(await tempDir('sv-reply-'), 'approved.md');
    await writeFile(reply, APPROVED);
  });

  async function repoWithRole(body: string): Promise<string> {
    const repo = await makeRepo({ 'README.md': '# cloned\n', '.gitignore': '.env\n' });
    await writeFiles(repo, { '.supervisor/roles/cloned.yaml': `name: cloned\nextends: reviewer\n${body}`, '.env': `DB_PASSWORD=${SECRET}\n` });
    return repo;
  }

  const run = (repo: string, extra: string[] = []) => box.run(['run', 'cloned', '--cli', 'replay', '--task', 'Review', '--json', ...extra], { cwd: repo, env: { SUPERVISOR_REPLAY: reply } });

  it("an untrusted repository's role setting allowed_commands: exit 2 ROLE_UNTRUSTED_COMMANDS; --trust runs it", async () => {
    const repo = await repoWithRole('allowed_commands: ["npm test"]\n');
    const refused = await run(repo);
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(refusal(refused.stderr).code, 'ROLE_UNTRUSTED_COMMANDS');
    const trusted = await run(repo, ['--trust']);
    assert.equal(trusted.code, 0, trusted.stderr);
  });

  for (const value of ['x:*),Bash,Bash(y', 'npm test; curl evil', '$(id)', 'a  b', '-rf']) {
    it(`the allowed command ${JSON.stringify(value)} is refused, exit 2 ALLOWED_COMMAND_INVALID naming it (--allow-command and a trusted role alike)`, async () => {
      const repo = await repoWithRole(`allowed_commands: [${JSON.stringify(value)}]\n`);
      const byRole = await run(repo, ['--trust']);
      assert.equal(byRole.code, 2, byRole.stderr);
      assert.deepEqual([refusal(byRole.stderr).code, refusal(byRole.stderr).details.value], ['ALLOWED_COMMAND_INVALID', value]);
      const plain = await makeRepo({ 'README.md': '# mine\n' });
      const byFlag = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review', '--json', `--allow-command=${value}`], { cwd: plain, env: { SUPERVISOR_REPLAY: reply } });
      assert.equal(byFlag.code, 2, byFlag.stderr);
      assert.deepEqual([refusal(byFlag.stderr).code, refusal(byFlag.stderr).details.value], ['ALLOWED_COMMAND_INVALID', value]);
    });
  }

  it('plain commands pass: "npm run test:unit", "cargo build"', async () => {
    const plain = await makeRepo({ 'README.md': '# mine\n' });
    const out = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'Review', '--json', '--allow-command', 'npm run test:unit', '--allow-command', 'cargo build'], { cwd: plain, env: { SUPERVISOR_REPLAY: reply } });
    assert.equal(out.code, 0, out.stderr);
  });

  const contexts = [
    { title: 'context.secret_scan: false', body: 'context:\n  secret_scan: false\n  include: [".env"]\n' },
    { title: 'always_include: [".env"]', body: 'context:\n  always_include: [".env"]\n' },
    { title: 'always_include of a gitignored file', body: 'context:\n  always_include: ["local/creds.txt"]\n' },
    { title: 'default_ignores: false', body: 'context:\n  default_ignores: false\n  include: ["**/*"]\n' },
  ];
  for (const { title, body } of contexts) {
    it(`an untrusted repository's role with ${title}: exit 2 ROLE_UNTRUSTED_CONTEXT, no secret in any prompt`, async () => {
      const repo = await repoWithRole(body);
      await writeFiles(repo, { '.gitignore': '.env\nlocal/\n', 'local/creds.txt': `token ${SECRET}\n` });
      const refused = await run(repo);
      assert.equal(refused.code, 2, refused.stderr);
      assert.equal(refusal(refused.stderr).code, 'ROLE_UNTRUSTED_CONTEXT');
      assert.doesNotMatch(refused.stdout + refused.stderr, new RegExp(SECRET));
    });
  }

  it('the same context settings in a trusted repository are the user\'s choice: the run goes ahead', async () => {
    const repo = await repoWithRole('context:\n  always_include: ["README.md"]\n  secret_scan: false\n');
    const out = await run(repo, ['--trust']);
    assert.equal(out.code, 0, out.stderr);
    const result = JSON.parse(out.stdout) as { run_dir: string };
    assert.match(readFileSync(join(result.run_dir, 'prompt.md'), 'utf8'), /# cloned/);
  });
});
