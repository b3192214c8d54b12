import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse } from 'yaml';
import { githubJobId, renderGithubActions } from '../../../../core/workflow/export/github-actions.ts';
import type { WorkflowTask } from '../../../../core/plugin-api/workflow-model.ts';
import { DIAMOND, spec, task, wide } from './_spec.ts';

/** The file as GitHub's own parser reads it: its errors, and each job's needs. */
async function githubReads(text: string): Promise<{ errors: string[]; needs: Map<string, string[]> }> {
  const parsed = parseWorkflow({ name: 'supervisor.yml', content: text }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (!parsed.value) return { errors, needs: new Map() };
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  errors.push(...(template.errors ?? []).map((e) => e.Message));
  return { errors, needs: new Map(template.jobs.map((j) => [j.id.value, (j.needs ?? []).map((n) => n.value)])) };
}

const planNeeds = (tasks: WorkflowTask[]) => new Map([...tasks.map((t) => [githubJobId(t.id), t.depends_on.map(githubJobId)] as [string, string[]]), ['final', tasks.map((t) => githubJobId(t.id))]]);

describe('workflow export --to github-actions (generator)', () => {
  it("parses with GitHub's own parser with no errors, and its needs are the plan's dependencies", async () => {
    const tasks = [...DIAMOND, task('x.y', ['d']), task('x_y', ['x.y'])];
    const { errors, needs } = await githubReads(renderGithubActions(spec(tasks)).text);
    assert.deepEqual(errors, []);
    assert.deepEqual(needs, planNeeds(tasks));
    assert.notEqual(githubJobId('x.y'), githubJobId('x_y'), "'.' and '_' stay two jobs");
  });

  it('asks for contents: write, sets no concurrency group, fetches the whole history, and runs the final job unless cancelled', () => {
    const doc = parse(renderGithubActions(spec(DIAMOND)).text) as { permissions: unknown; concurrency?: unknown; on: unknown; jobs: Record<string, { if?: string; 'timeout-minutes': number; concurrency?: unknown; steps: { uses?: string; with?: Record<string, unknown>; run?: string }[] }> };
    assert.deepEqual(doc.permissions, { contents: 'write' });
    assert.equal(doc.concurrency, undefined);
    assert.deepEqual(doc.on, { workflow_dispatch: {} });
    for (const [id, job] of Object.entries(doc.jobs)) {
      assert.equal(job.concurrency, undefined, id);
      assert.deepEqual(job.steps[0], { uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } }, id);
      assert.match(job.steps[1]!.run!, /^"\$\{SUPERVISOR:-supervisor\}" workflow task wf-1 /, id);
    }
    assert.equal(doc.jobs.final!.if, '${{ !cancelled() }}');
    assert.equal(doc.jobs['task-a']!['timeout-minutes'], 42);
    assert.equal(doc.jobs.final!['timeout-minutes'], 17);
  });

  it('references the keys as secrets by name only: task jobs get every key, the final job only the passed variables', () => {
    const doc = parse(renderGithubActions(spec(DIAMOND)).text) as { jobs: Record<string, { env?: Record<string, string> }> };
    assert.deepEqual(doc.jobs['task-a']!.env, { ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}', NPM_TOKEN: '${{ secrets.NPM_TOKEN }}' });
    assert.deepEqual(doc.jobs.final!.env, { NPM_TOKEN: '${{ secrets.NPM_TOKEN }}' });
  });

  it("keeps '${{' in a command literal, so a flag cannot become an expression GitHub evaluates", async () => {
    const text = renderGithubActions(spec(DIAMOND, { flags: ['--allow-command', 'echo ${{ secrets.OTHER }}'] })).text;
    assert.doesNotMatch(text, /\$\{\{ secrets\.OTHER/);
    assert.deepEqual((await githubReads(text)).errors, []);
  });

  it('is deterministic, and a wide plan (60 tasks) has no needs limit to fall back from', async () => {
    const tasks = wide(60);
    const one = renderGithubActions(spec(tasks));
    assert.equal(renderGithubActions(spec(tasks.map((t) => ({ ...t })))).text, one.text);
    assert.deepEqual(one.notices, []);
    const { errors, needs } = await githubReads(one.text);
    assert.deepEqual(errors, []);
    assert.equal(needs.get('final')!.length, 60);
  });
});
