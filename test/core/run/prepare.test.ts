import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prepareRun } from '../../../core/run/prepare.ts';
import { makeRepo } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { harness, STATUS_SCHEMA } from './_fakes.ts';

describe('prepareRun', () => {
  it("the retry format is the parser's own, with the schema only when the prompt does not show it", async () => {
    const repo = await makeRepo();
    const plain = await prepareRun(harness(repo, []).options);
    assert.match(plain.formatText, /^You MUST end your response with a fenced JSON code block/);
    assert.ok(plain.formatText.includes(JSON.stringify(STATUS_SCHEMA, null, 2)), 'a plain prompt gets the schema');
    const h = harness(repo, []);
    const buildPrompt = h.options.peers!.buildPrompt!;
    h.options.peers!.buildPrompt = async (o) => ({ ...(await buildPrompt(o)), template: 'implement' });
    const templated = await prepareRun(h.options);
    assert.match(templated.formatText, /Bare JSON without fences will NOT be accepted/);
    assert.doesNotMatch(templated.formatText, /validate against this JSON Schema/, 'the template already shows it');
    const v2 = await prepareRun(harness(repo, [], { role: { name: 'worker', parser: 'v2-headers' } }).options);
    assert.match(v2.formatText, /the very first line is\n`role: worker`/);
  });

  it('loads a role from a file when the argument looks like one (relative to the repository)', async () => {
    const repo = await makeRepo({ 'roles/triage.yaml': 'name: triage\ndescription: Sorts bug reports\ncli: fake\nsystem_prompt: Sort the report.\n' });
    for (const arg of ['./roles/triage.yaml', 'roles/triage.yaml']) {
      const h = harness(repo, []);
      delete h.options.peers!.loadRole;
      const prepared = await prepareRun({ ...h.options, role: arg });
      assert.equal(prepared.role.name, 'triage', arg);
    }
  });

  it('supervisor run ./role.yaml runs the role in that file', async () => {
    const repo = await makeRepo({ 'triage.yaml': 'name: triage\ndescription: Sorts bug reports\ncli: claude\nsystem_prompt: Sort the report.\n' });
    const dry = await runCli(['run', './triage.yaml', '--task', 'sort it', '--dry-run', '--json'], { cwd: repo });
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal((JSON.parse(dry.stdout) as { role: string }).role, 'triage');
  });
});
