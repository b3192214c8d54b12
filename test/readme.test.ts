/**
 * The README and the code agree: the documented `--json` keys of a run and of a workflow (its
 * task shape too), the statuses, the failure classes, the exit codes and the role config ranges
 * are read from README.md and checked against what the code produces and declares.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EXIT } from '../core/errors.ts';
import { WORKFLOW_STATUSES } from '../core/workflow/engine/result.ts';
import { TASK_STATES } from '../core/workflow/engine/store.ts';
import { makeRepo } from './helpers/git-repo.ts';
import { runCli } from './helpers/run-cli.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const ticks = (text: string) => [...text.matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]!);
/** Words in backticks, `a | b | c` lists split. */
const words = (text: string) => [...text.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1]!.split(/\s*\|\s*/)).filter((w) => /^[a-z_0-9]+$/.test(w));
const sorted = (list: Iterable<string>) => [...new Set(list)].sort();

/** The text of the README from `start` up to the first blank line. */
function paragraph(start: string): string {
  const at = readme.indexOf(start);
  assert.ok(at >= 0, `README has "${start}"`);
  const end = readme.indexOf('\n\n', at);
  return readme.slice(at, end < 0 ? undefined : end);
}

describe('README.md agrees with the code', () => {
  it('documents every exit code', () => {
    const text = paragraph('Exit codes: 0 pass');
    for (const code of Object.values(EXIT)) assert.match(text, new RegExp(`(^|[^0-9])${code}([^0-9]|$)`), `exit code ${code} in: ${text}`);
  });

  it('lists the failure classes the code has', () => {
    const row = readme.split('\n').find((l) => l.startsWith('| `failure` |'))!;
    const documented = row.slice(row.indexOf('class is one of')).match(/`([^`]+)`/)![1]!.split(' ');
    const source = readFileSync(join(root, 'core/plugin-api/contracts/adapter.ts'), 'utf8');
    const union = source.slice(source.indexOf('export type FailureClass'), source.indexOf(';', source.indexOf('export type FailureClass')));
    assert.deepEqual(sorted(documented), sorted([...union.matchAll(/\| '([a-z_]+)'/g)].map((m) => m[1]!)));
    assert.match(row, /http_status/);
  });

  it('gives the role config ranges of the schema', () => {
    const schema = JSON.parse(readFileSync(join(root, 'schemas/role.schema.json'), 'utf8')) as { properties: { config: { properties: Record<string, { minimum: number; maximum: number }> } } };
    const config = schema.properties.config.properties;
    const text = readme.replace(/\n/g, ' ');
    for (const key of ['max_retries', 'timeout', 'coverage_target']) {
      const m = new RegExp('`' + key + '` (\\d+)–(\\d+)').exec(text);
      assert.ok(m, `README gives a range for ${key}`);
      assert.deepEqual([Number(m[1]), Number(m[2])], [config[key]!.minimum, config[key]!.maximum], key);
    }
  });

  it("documents every key of run --json and of workflow run --json (the task shape included), and the statuses", async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    const run = await runCli(['run', 'reviewer', '--task', 'look', '--cli', 'replay', '--json'], { cwd: repo });
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    const table = readme.slice(readme.indexOf('**The result** (`--json`'), readme.indexOf('**Exit codes.**'));
    const documented = table.split('\n').filter((l) => l.startsWith('| `')).flatMap((l) => ticks(l.split(' | ')[0]!));
    assert.deepEqual(sorted(documented), sorted(Object.keys(result)));

    const plan = join(repo, '..', `${repo.split('/').pop()}-plan.yaml`);
    await writeFile(plan, 'name: readme\ntasks:\n  - { id: a, title: A, task: Do a., review: none }\n');
    const flow = await runCli(['workflow', 'run', plan, '--cli', 'replay', '--json'], { cwd: repo });
    const wf = JSON.parse(flow.stdout) as { tasks: Record<string, unknown>[] } & Record<string, unknown>;
    const progress = paragraph('**Progress and result.**');
    assert.deepEqual(sorted(ticks(progress.slice(progress.indexOf('with `--json`:'), progress.indexOf('A workflow is `pass`')))).filter((k) => !WORKFLOW_STATUSES.includes(k as never)), sorted(Object.keys(wf)));
    assert.deepEqual(sorted(words(progress.slice(progress.indexOf('`status` ('), progress.indexOf(')', progress.indexOf('`status` ('))))).filter((k) => k !== 'status'), sorted(WORKFLOW_STATUSES));

    const shape = paragraph('**One task shape.**');
    const task = wf.tasks[0]!;
    const part = (from: string, to: string) => shape.slice(shape.indexOf(from), shape.indexOf(to, shape.indexOf(from)));
    const top = [...ticks(part('the same way:', '(`pending')), ...ticks(part('`rounds`', '`metrics` (')), 'metrics', 'runs', 'depends_on', 'why', 'current'];
    assert.deepEqual(sorted(top), sorted(Object.keys(task)));
    assert.deepEqual(sorted(words(part('(`pending', ')'))), sorted(TASK_STATES));
    assert.deepEqual(sorted(ticks(part('`metrics` (', ')'))).filter((k) => k !== 'metrics'), sorted(Object.keys(task.metrics as object)));
    const runKeys = Object.keys((task.runs as Record<string, unknown>[])[0]!);
    assert.deepEqual(sorted(ticks(part('`runs` (each', ')'))).filter((k) => k !== 'runs'), sorted(runKeys));
    const current = /`current` \(`\{([^}]+)\}`/.exec(shape)![1]!.split(/,\s*/);
    assert.deepEqual(sorted(current), ['cli', 'role', 'round', 'run_id', 'started_at']);
  });
});
