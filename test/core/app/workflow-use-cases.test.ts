/**
 * The workflow use cases, input → outcome, without any command line: who may run a plan's
 * commands (a repository's plan, a plan `workflow plan` wrote for the user, a plan outside the
 * repository named on the command line or by an MCP client), and that check and the dry run
 * refuse what run refuses. Preparing starts nothing: no workflow folder, no branch.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { type AppDeps } from '../../../core/app/deps.ts';
import { fromCliContext } from '../../../core/command/app-deps.ts';
import { recordWritten } from '../../../core/app/written-record.ts';
import { prepareWorkflowRun, workflowCheck, workflowDryRun } from '../../../core/app/workflow-run.ts';
import { createCliContext } from '../../../core/command/context.ts';
import { defaultDeps } from '../../../core/command/deps.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';

const PLAN = "name: gated\ngates: ['true']\ntasks:\n  - { id: one, title: One, task: Do one., review: none }\n";

async function appDeps(repo: string, how: { outsideFilesAreUsers?: boolean; homeDir?: string } = {}): Promise<AppDeps> {
  const homeDir = how.homeDir ?? (await tempDir('sv-home-'));
  const base = await defaultDeps();
  const ctx = await createCliContext({ ...base, cwd: repo, homeDir, env: { ...process.env, HOME: homeDir }, stdin: Readable.from([]), stdout: { write: () => true }, stderr: { write: () => true } }, { json: true, debug: false, plugin: [], userPlugins: true });
  return fromCliContext(ctx, { outsideFilesAreUsers: how.outsideFilesAreUsers ?? true });
}

const codeOf = (error: unknown) => (error as { code?: string }).code;
const nothingStarted = (repo: string) => {
  assert.equal(existsSync(join(repo, '.supervisor', 'workflows')), false);
  assert.equal(git(repo, 'branch', '--list', 'supervisor/*').trim(), '');
};

describe('workflow use cases', () => {
  it("an untrusted repository's plan with commands: run, check and the dry run refuse it alike", async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n', 'plan.yaml': PLAN });
    const deps = await appDeps(repo);
    const input = { file: 'plan.yaml', cli: ['replay'] };
    await assert.rejects(prepareWorkflowRun(input, deps), (e) => codeOf(e) === 'WORKFLOW_UNTRUSTED_COMMANDS');
    await assert.rejects(workflowCheck(input, deps), (e) => codeOf(e) === 'WORKFLOW_UNTRUSTED_COMMANDS');
    const dry = await workflowDryRun(input, deps);
    assert.equal(codeOf(dry.refusal), 'WORKFLOW_UNTRUSTED_COMMANDS');
    assert.deepEqual(dry.plan.per_task, [{ id: 'one', approve: false, setup: [], gates: [], allowed_commands: [], sandbox: null }]);
    nothingStarted(repo);
  });

  it('a plan supervisor wrote for the user (workflow plan) is theirs while it is those bytes', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n', 'plan.yaml': PLAN });
    const homeDir = await tempDir('sv-home-');
    recordWritten(homeDir, readFileSync(join(repo, 'plan.yaml')), 'plan', join(repo, 'plan.yaml'));
    const deps = await appDeps(repo, { homeDir });
    const prepared = await prepareWorkflowRun({ file: 'plan.yaml', cli: ['replay'], allowCommands: ['npm test'] }, deps);
    assert.deepEqual(prepared.taskIds, ['one']);
    assert.equal((await workflowCheck({ file: 'plan.yaml', cli: ['replay'] }, deps)).per_task[0]!.id, 'one');
    nothingStarted(repo);
    await writeFile(join(repo, 'plan.yaml'), PLAN.replace("'true'", "'false'"));
    await assert.rejects(prepareWorkflowRun({ file: 'plan.yaml', cli: ['replay'] }, deps), (e) => codeOf(e) === 'WORKFLOW_UNTRUSTED_COMMANDS', 'other bytes are the repository\'s again');
  });

  it('a plan outside the repository: the user\'s own on the command line, untrusted when an MCP client names it (unless --trust)', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const file = join(await tempDir('sv-outside-'), 'plan.yaml');
    await writeFile(file, PLAN);
    assert.deepEqual((await prepareWorkflowRun({ file, cli: ['replay'] }, await appDeps(repo))).taskIds, ['one']);
    await assert.rejects(prepareWorkflowRun({ file, cli: ['replay'] }, await appDeps(repo, { outsideFilesAreUsers: false })), (e) => codeOf(e) === 'WORKFLOW_UNTRUSTED_COMMANDS');
    nothingStarted(repo);
  });
});

describe('run use case', () => {
  it("an MCP client's role file outside the repository is UNTRUSTED_PATH unless the server runs with --trust", async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const role = join(await tempDir('sv-outside-role-'), 'mine.yaml');
    await writeFile(role, 'extends: reviewer\ngates: ["true"]\n');
    const { runRequest } = await import('../../../core/app/run.ts');
    await assert.rejects(runRequest({ role, task: 'Review', targets: [] }, await appDeps(repo, { outsideFilesAreUsers: false })), (e) => codeOf(e) === 'UNTRUSTED_PATH');
    const call = await runRequest({ role, task: 'Review', targets: [] }, await appDeps(repo));
    assert.equal(call.request.role, role, 'on the command line it is the user\'s own');
  });
});
