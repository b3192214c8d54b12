/** What workflow export decides for every job: the recorded settings as flags, time limits from the plan, the runner's needs. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startingSettings } from '../../../core/app/settings.ts';
import { jobTimeouts, runnerNeeds, settingsFlags } from '../../../core/app/workflow-export-jobs.ts';
import type { Workflow, WorkflowTask } from '../../../core/plugin-api/workflow-model.ts';
import { createRegistry } from '../../../core/registry.ts';
import type { Role } from '../../../core/roles/role.ts';

const TRUST = { repository: false, via: 'none', plan_commands: false };
const DEFAULTS = { roleTimeout: 600, roleGateTimeout: 300, setupTimeout: 900, workflowGateTimeout: 600 };

const task = (id: string, over: Partial<WorkflowTask> = {}): WorkflowTask => ({ id, title: id, task: id, files: [], depends_on: [], worker: 'worker', reviewers: ['spec-reviewer'], cli: null, model: null, gates: [], max_rounds: 2, approve: false, ...over });
const role = (name: string, config: Role['config'], gates: string[] = []) => ({ name, config, gates }) as unknown as Role;

function workflow(tasks: WorkflowTask[], over: Partial<Workflow> = {}): Workflow {
  return { id: 'wf', name: 'wf', source: { file: 'p.yaml', reader: 'workflow-yaml' }, base: null, jobs: null, gates: [], gates_on: 'merge', max_cost_usd: null, defaults: { worker: 'worker', reviewers: [], cli: null, model: null, max_rounds: 2, approve: false }, models: {}, merge: 'merge', on_event: [], tasks, ...over };
}

describe('workflow export: what each job gets', () => {
  it('the recorded settings become the same flags in a fixed order; --trust last', () => {
    const settings = startingSettings('wf', { sandbox: 'bwrap', cli: { all: 'claude', byRole: { 'spec-reviewer': 'codex', 'code-quality-reviewer': 'gemini' } }, allow_commands: ['npm test'], allow_hosts: ['registry.npmjs.org:443'], pass_env: ['NPM_TOKEN'], max_cost_usd: 5, min_run_usd: 0.05, max_rounds: 4, quota_wait_ms: 90_000, jobs: 3 }, TRUST);
    assert.deepEqual(settingsFlags(settings, { approveAll: true, onEvent: ['notify'] }, true), [
      '--sandbox', 'bwrap', '--cli', 'claude', '--cli', 'code-quality-reviewer=gemini', '--cli', 'spec-reviewer=codex',
      '--allow-command', 'npm test', '--allow-host', 'registry.npmjs.org:443', '--pass-env', 'NPM_TOKEN',
      '--max-cost-usd', '5', '--min-run-usd', '0.05', '--max-rounds', '4', '--quota-wait', '90s', '--approve-all', '--on-event', 'notify', '--trust',
    ]);
    assert.deepEqual(settingsFlags(startingSettings('wf', {}, TRUST), {}, false), [], 'nothing given, nothing passed on');
  });

  it("time limits come from the plan: set-up, rounds times each role's timeout and gates, the plan's gates", () => {
    const roles = new Map([['worker', role('worker', { timeout: 900 }, ['npm test'])], ['spec-reviewer', role('spec-reviewer', {})]]);
    const plan = workflow([task('a', { gates: ['make lint'], setup: ['npm ci', 'npm run build'] }), task('b', { max_rounds: 1, reviewers: [] })], { gates: ['npm test'], setup_timeout: 120 });
    // a: 2 × 120 set-up + 2 rounds × (worker 900 + its 2 gates × 300 + reviewer 600) + the plan's gate 600 + 300 = 5340 s: 89 min.
    // b: 1 round × (900 + 300) + 600 + 300 = 2100 s: 35 min. final: 600 + 300 = 900 s: 15 min.
    assert.deepEqual(jobTimeouts(plan, roles, null, DEFAULTS), { tasks: { a: 89, b: 35 }, final: 15 });
    assert.equal(jobTimeouts(plan, roles, 1, DEFAULTS).tasks.a, 54, '--max-rounds 1 given to export');
    assert.equal(jobTimeouts({ ...plan, gates_on: 'end' }, roles, null, DEFAULTS).tasks.b, 25, 'gates_on: end: the plan gates run in the final job only');
  });

  it("the runner's needs: each adapter's program and key variables, and the passed variables (a prefix names no secret)", () => {
    const adapter = (name: string, bin: string, secrets?: string[]) => ({ kind: 'adapter' as const, name, source: 'builtin', plugin: { kind: 'adapter', name, bin, access: secrets ? { secrets } : {} } });
    const registry = createRegistry([adapter('claude', 'claude', ['ANTHROPIC_API_KEY']), adapter('codex', 'codex', ['OPENAI_API_KEY']), adapter('replay', 'supervisor')] as never);
    assert.deepEqual(runnerNeeds(['replay', 'codex', 'claude'], registry, ['NPM_TOKEN', 'AWS_*', 'NPM_TOKEN']), {
      clis: ['claude', 'codex'],
      secrets: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'NPM_TOKEN'],
      finalSecrets: ['NPM_TOKEN'],
      prefixes: ['AWS_*'],
    });
  });
});
