/**
 * Every plugin function goes through the hook wrapper (issue 26 item 7), the closures a hook
 * returns and a plan reader's `detect` included: a sandbox whose `teardown` never settles or
 * answers with a value, and a plan reader whose `detect` never settles or answers with a
 * non-boolean, stop the command with PLUGIN_TIMEOUT / PLUGIN_SHAPE naming the plugin and hook
 * (before: a hanging teardown hung the run, a hanging detect hung `workflow check`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { makeRepo, writeFiles } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { fakeEnv } from '../../e2e/_run.ts';

/** A sandbox that runs the command as given and hands back `teardown`. */
const sandbox = (name: string, teardown: string) => `
export default {
  kind: 'sandbox', name: '${name}',
  available: () => ({ ok: true }),
  wrap: (request) => ({ ...request.command, teardown: ${teardown} }),
};
`;

/** A plan reader of files ending .${'plan'} whose detect is given. */
const reader = (name: string, detect: string) => `
export default {
  kind: 'plan-reader', name: '${name}',
  detect: ${detect},
  read: () => ({ tasks: [{ id: 'one', title: 'look', task: 'look at it' }] }),
};
`;

const errorOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').pop()!).error as { code: string; details: Record<string, unknown> };

describe('plugin closures and detect go through the hook wrapper', () => {
  const saved = process.env.SUPERVISOR_PLUGIN_TIMEOUT_MS;
  before(() => {
    // The wrapper reads the limit from the process (as the binary does): short, so a hang ends fast.
    process.env.SUPERVISOR_PLUGIN_TIMEOUT_MS = '800';
  });
  after(() => {
    if (saved === undefined) delete process.env.SUPERVISOR_PLUGIN_TIMEOUT_MS;
    else process.env.SUPERVISOR_PLUGIN_TIMEOUT_MS = saved;
  });

  for (const [name, teardown, code] of [
    ['hangdown', '() => new Promise(() => {})', 'PLUGIN_TIMEOUT'],
    ['valuedown', "async () => 'torn down'", 'PLUGIN_SHAPE'],
  ] as const) {
    it(`a sandbox whose teardown ${code === 'PLUGIN_TIMEOUT' ? 'never settles' : 'answers with a value'} stops the run with ${code} naming the plugin and teardown`, async () => {
      const repo = await makeRepo({ 'a.js': '1\n' });
      await writeFiles(join(repo, '.supervisor/plugins'), { [`${name}.mjs`]: sandbox(name, teardown) });
      const run = await runCli(['run', 'reviewer', '--cli', 'replay', '--task', 'Review', '--sandbox', name, '--retries', '0', '--json'], { cwd: repo, env: fakeEnv(), trust: true });
      assert.notEqual(run.code, 0, run.stderr);
      const error = errorOf(run.stderr);
      assert.equal(error.code, code, run.stderr);
      assert.equal(error.details.plugin, name);
      assert.equal(error.details.hook, 'teardown');
    });
  }

  for (const [name, detect, code] of [
    ['hangdetect', '() => new Promise(() => {})', 'PLUGIN_TIMEOUT'],
    ['yesdetect', "() => 'yes'", 'PLUGIN_SHAPE'],
  ] as const) {
    it(`a plan reader whose detect ${code === 'PLUGIN_TIMEOUT' ? 'never settles' : 'answers with a string'} fails workflow check with ${code} naming the plugin and detect`, async () => {
      const repo = await makeRepo({ 'work.plan': 'anything\n' });
      await writeFiles(join(repo, '.supervisor/plugins'), { [`${name}.mjs`]: reader(name, detect) });
      const run = await runCli(['workflow', 'check', 'work.plan', '--json'], { cwd: repo, env: fakeEnv(), trust: true });
      assert.equal(run.code, 2, run.stderr);
      const error = errorOf(run.stderr);
      assert.equal(error.code, code, run.stderr);
      assert.equal(error.details.plugin, name);
      assert.equal(error.details.hook, 'detect');
    });
  }
});
