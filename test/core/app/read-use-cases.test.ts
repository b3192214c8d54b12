/**
 * The read-side and housekeeping use cases, input → result, without any command line: gc,
 * pack, runs list/show and workflow logs refuse what they cannot answer (same code from every
 * entry point) before touching anything, and answer from the repository's state otherwise.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { type AppDeps } from '../../../core/app/deps.ts';
import { fromCliContext } from '../../../core/command/app-deps.ts';
import { gc } from '../../../core/app/gc.ts';
import { pack } from '../../../core/app/pack.ts';
import { runsList, runsShow } from '../../../core/app/runs.ts';
import { workflowLogs } from '../../../core/app/workflow-views.ts';
import { createCliContext } from '../../../core/command/context.ts';
import { defaultDeps } from '../../../core/command/deps.ts';
import { WorkflowStore } from '../../../core/workflow/engine/store.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { task, workflow } from '../workflow/engine/_workflow.ts';

async function appDeps(repo: string): Promise<AppDeps> {
  const homeDir = await tempDir('sv-home-');
  const base = await defaultDeps();
  const ctx = await createCliContext({ ...base, cwd: repo, homeDir, env: { ...process.env, HOME: homeDir }, stdin: Readable.from([]), stdout: { write: () => true }, stderr: { write: () => true } }, { json: true, debug: false, plugin: [], userPlugins: true });
  return fromCliContext(ctx);
}

const codeOf = (error: unknown) => (error as { code?: string }).code;

describe('read and housekeeping use cases', () => {
  it('gc: an age it cannot read is USAGE and nothing is removed; a dry run reports and removes nothing', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    git(repo, 'branch', 'supervisor/old');
    const deps = await appDeps(repo);
    await assert.rejects(gc({ olderThan: 'soon', dryRun: false, includeUnmerged: true, includeWorkflows: true }, deps), (e) => codeOf(e) === 'USAGE');
    const report = await gc({ olderThan: '1h', dryRun: true, includeUnmerged: false, includeWorkflows: false }, deps);
    assert.equal(report.dry_run, true);
    assert.match(git(repo, 'branch', '--list', 'supervisor/*'), /supervisor\/old/);
  });

  it('runs list: --since it cannot read and --task without --workflow are USAGE; an empty log lists nothing', async () => {
    const deps = await appDeps(await makeRepo({ 'README.md': '# demo\n' }));
    await assert.rejects(runsList({ since: 'yesterday-ish' }, deps), (e) => codeOf(e) === 'USAGE');
    await assert.rejects(runsList({ task: 'parse' }, deps), (e) => codeOf(e) === 'USAGE');
    assert.deepEqual(await runsList({ since: '7d' }, deps), []);
    await assert.rejects(runsShow({ id: 'last' }, deps), (e) => codeOf(e) === 'RUN_NOT_FOUND');
  });

  it('workflow logs: a task the plan does not have is WORKFLOW_TASK_NOT_FOUND; a known one is followed', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const store = new WorkflowStore(repo, 'wf-test');
    store.create(workflow([task('a'), task('b')]));
    store.append('workflow_started', { workflow_id: 'wf-test', base: 'a'.repeat(40), pid: process.pid });
    const deps = await appDeps(repo);
    await assert.rejects(workflowLogs({ id: 'wf-test', task: 'zzz' }, deps), (e) => codeOf(e) === 'WORKFLOW_TASK_NOT_FOUND');
    const logs = await workflowLogs({ task: 'a' }, deps);
    assert.equal(logs.id, 'wf-test');
    assert.ok(Array.isArray(logs.follower.poll(true)));
  });

  it('pack: without a role or globs, the whole repository; with globs, only theirs', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
    const deps = await appDeps(repo);
    const base = { packers: [], exclude: [], targets: [], extraContext: {}, tokenizer: 'chars' as const, secretScan: true, countTokens: false };
    const all = await pack({ ...base, include: [] }, deps);
    assert.match(all.text, /README\.md/);
    assert.match(all.text, /src\/a\.ts/);
    const some = await pack({ ...base, include: ['src/**'] }, deps);
    assert.doesNotMatch(some.text, /README\.md/);
  });
});
