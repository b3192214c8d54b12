/**
 * The README's offline example through the binary: on a fresh clone (here: a repository holding
 * scripts/examples/offline as the project ships it), `workflow run` of the example plan with
 * `--cli replay` and the example's replay folder ends `pass`, the workers' canned changes
 * (patches) on the integration branch, the checkout unchanged.
 */
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox } from './binary.ts';

const example = fileURLToPath(new URL('../../scripts/examples/offline/', import.meta.url));
const readme = fileURLToPath(new URL('../../README.md', import.meta.url));

describe("the README's offline example, from the binary", binarySuite(), () => {
  it('ends pass with the canned changes on the integration branch', async () => {
    const box = await makeSandbox();
    const repo = await makeRepo({ 'README.md': '# a clone\n' });
    await cp(example, join(repo, 'scripts/examples/offline'), { recursive: true });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'the example as shipped');
    const before = snapshotCheckout(repo);
    const run = await box.run(['workflow', 'run', 'scripts/examples/offline/workflow.yaml', '--cli', 'replay', '--json'], {
      cwd: repo,
      env: { SUPERVISOR_REPLAY: 'scripts/examples/offline/replies' },
    });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { status: string; branch: string; tasks: { id: string; status: string; rounds: number }[] };
    assert.equal(result.status, 'pass');
    assert.deepEqual(result.tasks.map((t) => [t.id, t.status, t.rounds]), [['validate', 'integrated', 2], ['docs', 'integrated', 1]]);
    assert.match(git(repo, 'show', `${result.branch}:scripts/examples/offline/math.js`), /throw new TypeError/);
    assert.match(git(repo, 'show', `${result.branch}:scripts/examples/offline/math.test.js`), /assert\.throws/);
    assert.match(git(repo, 'show', `${result.branch}:scripts/examples/offline/README.md`), /TypeError/);
    assertCheckoutUnchanged(repo, before);
  });

  it('is the command the README shows', async () => {
    const text = await readFile(readme, 'utf8');
    assert.match(text, /SUPERVISOR_REPLAY=scripts\/examples\/offline\/replies [^\n]*workflow run scripts\/examples\/offline\/workflow\.yaml --cli replay/);
    assert.match(await readFile(join(example, 'workflow.yaml'), 'utf8'), /workflow run scripts\/examples\/offline\/workflow\.yaml --cli replay/);
  });

  it('a workflow that ends gaps suggests workflow retry, as the others suggest their next step', async () => {
    const box = await makeSandbox();
    const repo = await makeRepo({ 'README.md': '# a clone\n' });
    const plan = join(repo, '..', `${repo.split('/').pop()}-plan.yaml`);
    await writeFile(plan, 'name: empty\ntasks:\n  - { id: a, title: A, task: Do a., review: none, max_rounds: 1 }\n');
    const run = await box.run(['workflow', 'run', plan, '--cli', 'replay'], { cwd: repo });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /: gaps \(exit 1\)/);
    assert.match(run.stdout, /supervisor workflow retry empty-/);
  });
});
