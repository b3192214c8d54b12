/**
 * D1 / I6: a workflow started with `--sandbox bwrap --allow-command "npm test"` keeps those
 * settings: the exact `workflow approve` command supervisor prints runs the later workers in the
 * same sandbox with the same allowed commands (they are recorded in settings.json). Dropping the
 * sandbox later is refused without --loosen; with it, it is reported and recorded.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FAKE_BIN } from '../helpers/fake-clis.ts';
import { missingBwrap } from '../helpers/requires.ts';
import { binarySuite } from './binary.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { makeSandbox } from './binary.ts';

interface Attempt {
  sandbox: string;
  args: string[];
}

/** Each run of the repository: its task and the attempts' sandbox and arguments (from its own log). */
function runs(repo: string): { task: string | undefined; attempts: Attempt[] }[] {
  const dir = join(repo, '.supervisor', 'runs');
  return readdirSync(dir).map((id) => {
    const events = readFileSync(join(dir, id, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const started = events.find((e) => e.kind === 'run_started');
    return { task: started?.task_id as string | undefined, attempts: events.filter((e) => e.kind === 'attempt_started') as unknown as Attempt[] };
  });
}

/**
 * The fake claude behind a wrapper in a PATH folder (the sandbox shows those; the project's own
 * folder and /tmp it hides): a worker writes work/<task>.txt (supervisor commits it), every role
 * answers pass. bubblewrap and prlimit beside it on the node-free PATH.
 */
async function bwrapWorld() {
  const box = await makeSandbox();
  const repo = await makeRepo({ 'README.md': '# demo\n' });
  const fakes = await tempDir('sv-fakes-');
  for (const name of ['claude', '_fake-cli.mjs', '_fake-envelopes.mjs', '_fake-script.mjs']) await copyFile(join(FAKE_BIN, name), join(fakes, name));
  await writeFile(join(fakes, 'reply-worker.md'), 'role: worker\ntask_id: none\nstatus: pass\ngit_range: HEAD~1..HEAD\nfiles_changed: work\n\nDone.\n');
  await writeFile(join(fakes, 'claude-wrapper'), `#!/bin/sh\nif [ "$SUPERVISOR_ROLE" = worker ]; then mkdir -p work && echo "done by $SUPERVISOR_TASK_ID" > "work/$SUPERVISOR_TASK_ID.txt"; fi\nFAKE_CLI_REPLY_FILE="${fakes}/reply-$SUPERVISOR_ROLE.md" exec "${process.execPath}" "${join(fakes, 'claude')}" "$@"\n`);
  await chmod(join(fakes, 'claude-wrapper'), 0o755);
  const bin = join(fakes, 'bin');
  await mkdir(bin);
  await symlink(join(fakes, 'claude-wrapper'), join(bin, 'claude'));
  for (const tool of ['bwrap', 'prlimit']) {
    const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (path) await symlink(path, join(bin, tool));
  }
  return { box, repo, fakes, env: { PATH: `${bin}:${box.path}`, SUPERVISOR_KILL_GRACE_MS: '300', SUPERVISOR_RETRY_BACKOFF_MS: '10' } };
}

async function plan(w: { fakes: string }, yaml: string): Promise<string> {
  const file = join(w.fakes, 'plan.yaml');
  await writeFile(file, yaml);
  return file;
}

const suite = binarySuite();
const bwrap = missingBwrap();

describe('a workflow keeps the settings it was started with', { ...suite, ...(bwrap && !suite.skip ? { skip: bwrap } : {}) }, () => {
  it('the printed approve command runs later workers with the same sandbox and allowed commands; loosening needs --loosen', async () => {
    const w = await bwrapWorld();
    const file = await plan(w, 'name: settings\ntasks:\n  - { id: held, title: Held, task: Do held., cli: claude, review: none, approve: true }\n  - { id: after, title: After, task: Do after., cli: claude, review: none, depends_on: [held] }\n');
    const first = await w.box.run(['workflow', 'run', file, '--sandbox', 'bwrap', '--allow-command', 'npm test'], { cwd: w.repo, env: w.env });
    assert.equal(first.code, 5, `${first.stdout}\n${first.stderr}`.replaceAll("\n", " / "));
    const printed = /supervisor (workflow approve \S+ held)\b/.exec(first.stdout + first.stderr);
    assert.ok(printed, first.stdout + first.stderr);
    const id = printed[1]!.split(' ')[2]!;
    const settings = JSON.parse(readFileSync(join(w.repo, '.supervisor', 'workflows', id, 'settings.json'), 'utf8')) as { sandbox: string; allow_commands: string[] };
    assert.deepEqual([settings.sandbox, settings.allow_commands], ['bwrap', ['npm test']]);

    // Dropping the sandbox is refused without --loosen, before anything is decided or started.
    const loose = await w.box.run(['workflow', 'approve', id, 'held', '--sandbox', 'none', '--json'], { cwd: w.repo, env: w.env });
    assert.equal(loose.code, 2, loose.stderr);
    assert.equal((JSON.parse(loose.stderr) as { error: { code: string } }).error.code, 'WORKFLOW_SETTINGS_LOOSENED');

    const approved = await w.box.run(printed[1]!.split(' '), { cwd: w.repo, env: w.env });
    assert.equal(approved.code, 0, approved.stdout + approved.stderr);
    const later = runs(w.repo).filter((r) => r.task === 'after');
    assert.ok(later.length > 0, 'the later task ran');
    for (const run of later) {
      for (const attempt of run.attempts) {
        assert.equal(attempt.sandbox, 'bwrap');
        assert.match(attempt.args.join(' '), /npm test/);
      }
    }
  });
});
