/**
 * `supervisor workflow run` through the built binary wst CLIs that attack the workflow's
 * git (issue 18): a reviewer rewriting its worktree's `.git` file to the user's `.git`; a
 * reviewer pointing its admin folder's HEAD at the user's branch; a worker that builds a fake
 * git dir with a smudge filter and points `.git` at it. Each without a sandbox and, where
 * bubblewrap works, inside `--sandbox bwrap`. After each: the user's checkout byte for byte
 * (HEAD, refs other than supervisor's, index, working files, stash) and no marker of a filter
 * run on the host.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';
import { missingBwrap, requires } from '../helpers/requires.ts';

const fakeBin = fileURLToPath(new URL('../fixtures/bin/', import.meta.url));

interface Result {
  workflow_id: string;
  status: string;
  exit_code: number;
  branch: string;
  tasks: { id: string; status: string; issues: string[] }[];
  notices: string[];
}

/** Why bwrap cannot run here, or undefined (as the sandbox suite decides). */
const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Snippets of shell a fake CLI runs in its worktree, by `<role>/<task>` (or `<role>`), before answering. */
type Attacks = Record<string, string>;

interface World {
  box: Sandbox;
  repo: string;
  fakes: string;
  marker: string;
  env: Record<string, string>;
  snapshot: () => unknown;
}

/**
 * A repository with a staged change and a stash, and a fake claude in a PATH folder (which the
 * sandbox shows): a shell wrapper that runs the attack for its role and task (from the
 * variables supervisor sets), then answers through the fake claude with a v2 reply.
 */
async function world(box: Sandbox, attack: (w: { repo: string; marker: string }) => Attacks): Promise<World> {
  const repo = await makeRepo({ 'README.md': '# demo\n', 'staged.txt': 'one\n' });
  const fakes = await tempDir('sv-fakes-');
  const markers = await tempDir('sv-markers-');
  made.push(repo, fakes, markers);
  const marker = join(markers, 'smudged-on-the-host');
  const attacks = attack({ repo, marker });
  writeFileSync(join(repo, 'stashed.txt'), 'x\n');
  git(repo, 'add', 'stashed.txt');
  git(repo, 'stash', '-q');
  writeFileSync(join(repo, 'staged.txt'), 'two\n');
  git(repo, 'add', 'staged.txt');
  for (const file of ['claude', '_fake-cli.mjs', '_fake-envelopes.mjs', '_fake-script.mjs']) await copyFile(join(fakeBin, file), join(fakes, file));
  await writeFile(join(fakes, 'reply-worker.md'), 'role: worker\ntask_id: none\nstatus: pass\ngit_range: HEAD~1..HEAD\nfiles_changed: work\n\nDone.\n');
  for (const role of ['spec-reviewer', 'code-quality-reviewer']) await writeFile(join(fakes, `reply-${role}.md`), `role: ${role}\ntask_id: none\nstatus: pass\nconfidence: high\n\nFine.\n`);
  const cases = Object.entries(attacks).map(([key, sh]) => `  ${key.includes('/') ? key : `${key}/*`}) ${sh} ;;`).join('\n');
  await writeFile(join(fakes, 'claude-wrapper'), `#!/bin/sh
case "$SUPERVISOR_ROLE/$SUPERVISOR_TASK_ID" in
${cases}
esac
if [ "$SUPERVISOR_ROLE" = worker ]; then mkdir -p work && echo "done by $SUPERVISOR_TASK_ID" > "work/$SUPERVISOR_TASK_ID.txt"; fi
FAKE_CLI_REPLY_FILE="${fakes}/reply-$SUPERVISOR_ROLE.md" exec "${process.execPath}" "${join(fakes, 'claude')}" "$@"
`);
  await chmod(join(fakes, 'claude-wrapper'), 0o755);
  const bin = join(fakes, 'bin');
  await mkdir(bin);
  await symlink(join(fakes, 'claude-wrapper'), join(bin, 'claude'));
  for (const tool of ['bwrap', 'prlimit']) {
    const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (path) await symlink(path, join(bin, tool));
  }
  const userRefs = () => git(repo, 'for-each-ref', '--format=%(objectname) %(refname)').split('\n').filter((l) => !/ refs\/(heads\/)?supervisor\//.test(l));
  const snapshot = () => ({ checkout: snapshotCheckout(repo), refs: userRefs(), stash: git(repo, 'stash', 'list', '--format=%H %gs') });
  const env = { PATH: `${bin}:${box.path}`, SUPERVISOR_KILL_GRACE_MS: '300', SUPERVISOR_RETRY_BACKOFF_MS: '10' };
  return { box, repo, fakes, marker, env, snapshot };
}

async function runWorkflow(w: World, tasks: string[], sandbox: string): Promise<{ code: number | null; result: Result; stderr: string }> {
  const plan = join(w.fakes, 'plan.yaml');
  await writeFile(plan, `name: attacked\ntasks:\n${tasks.map((t) => `  - id: ${t}\n    title: task ${t}\n    task: Do ${t}.\n    cli: claude\n    review: spec-only\n`).join('')}`);
  const run = await w.box.run(['workflow', 'run', plan, '--jobs', '1', '--sandbox', sandbox, '--json'], { cwd: w.repo, env: w.env });
  try {
    return { code: run.code, result: JSON.parse(run.stdout) as Result, stderr: run.stderr };
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/** Each attack as a reviewer or worker of task `a`; task `b` after it must still integrate in a fresh slot. */
const ATTACKS = {
  'a reviewer rewriting its .git file to the user\'s .git': (w: { repo: string; marker: string }): Attacks => ({ 'spec-reviewer/a': `printf 'gitdir: %s\\n' '${join(w.repo, '.git')}' > .git` }),
  "a reviewer pointing its admin folder's HEAD at the user's branch": (): Attacks => ({ 'spec-reviewer/a': `printf 'ref: refs/heads/main\\n' > "$(sed 's/^gitdir: //' .git)/HEAD"` }),
  'a worker pointing .git at a fake git dir with a smudge filter': (w: { repo: string; marker: string }): Attacks => ({
    'worker/a': [
      'mkdir -p work && echo x > work/a.txt',
      'git init -q fake',
      `git -C fake config filter.x.smudge 'echo smudged >> ${w.marker}; cat'`,
      "echo '* filter=x' > fake/.gitattributes && echo hi > fake/f.txt",
      'git -C fake add -A && git -C fake -c user.name=x -c user.email=x@x -c commit.gpgsign=false commit -qm x',
      `printf 'gitdir: %s/fake/.git\\n' "$PWD" > .git`,
    ].join(' && '),
  }),
};

function suite(sandbox: 'none' | 'bwrap'): { skip?: string } {
  const binary = binarySuite();
  return binary.skip || sandbox === 'none' ? binary : requires(missingBwrap());
}

for (const sandbox of ['none', 'bwrap'] as const) {
  describe(`supervisor workflow run --sandbox ${sandbox} against CLIs attacking its git, from the binary`, suite(sandbox), () => {
    let box: Sandbox;
    before(async () => {
      box = await makeSandbox();
    });

    for (const [name, attack] of Object.entries(ATTACKS)) {
      it(`${name}: the task is workspace_broken, the slot kept, the next task runs; the checkout is byte-identical and no filter ran on the host`, async () => {
        const w = await world(box, attack);
        const before = w.snapshot();
        const main = git(w.repo, 'rev-parse', 'main');
        const { code, result, stderr } = await runWorkflow(w, ['a', 'b'], sandbox);
        assert.equal(existsSync(w.marker), false, 'no smudge filter ran on the host');
        assert.equal(git(w.repo, 'rev-parse', 'main'), main, "the user's branch did not move");
        assert.deepEqual(w.snapshot(), before, "the user's checkout, refs and stash are unchanged");
        const byId = Object.fromEntries(result.tasks.map((t) => [t.id, t]));
        assert.equal(byId.a!.status, 'error', stderr);
        assert.match(byId.a!.issues.join('\n'), /workspace_broken/);
        assert.equal(byId.b!.status, 'integrated', `${stderr}\n${JSON.stringify(byId.b)}`);
        assert.equal(result.status, 'gaps');
        assert.notEqual(code, 0);
        assert.ok(result.notices.some((n) => /kept at/.test(n)), result.notices.join('\n'));
        assert.match(git(w.repo, 'show', `${result.branch}:work/b.txt`), /done by b/);
      });
    }
  });
}
