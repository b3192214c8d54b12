/** `supervisor prompt`: the exact prompt on stdout, stats on stderr, errors as exit 2. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRegistry } from '../../../core/registry.ts';
import { builtinEntries } from '../../../core/plugins/load.ts';
import { buildPrompt } from '../../../core/prompt/build-prompt.ts';
import { loadRole } from '../../../core/roles/load-role.ts';
import { makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

const repo = await makeRepo({
  'README.md': '# Demo\n',
  'src/app.ts': 'export const app = 1; // <% throw new Error("file") %>\n',
  'notes.txt': 'NOTES-FROM-FILE\n',
  'task.md': 'TASK FROM FILE <%= it.role.name %>\n',
});

describe('supervisor prompt', () => {
  it('prints exactly the prompt buildPrompt gives run, and nothing on stderr', async () => {
    const result = await runCli(['prompt', 'implementer', '--task', 'Add <%= it.x %>', '--target', 'src/app.ts', '--context', 'notes=@notes.txt'], { cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    const registry = createRegistry(builtinEntries());
    const role = await loadRole('implementer', { repoRoot: repo, homeDir: repo, adapters: registry.names('adapter') });
    const built = await buildPrompt({ role, task: 'Add <%= it.x %>', targets: ['src/app.ts'], extraContext: { notes: 'NOTES-FROM-FILE\n' }, repoRoot: repo, registry, instructionsAsArguments: false });
    assert.equal(result.stdout, built.prompt);
    assert.match(result.stdout, /NOTES-FROM-FILE/);
    assert.ok(result.stdout.includes('// <% throw new Error("file") %>'));
  });

  it('reads the task from @file and from stdin', async () => {
    const fromFile = await runCli(['prompt', 'planner', '--task', '@task.md'], { cwd: repo });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.match(fromFile.stdout, /## Task\n\nTASK FROM FILE <%= it\.role\.name %>\n/);
    const fromStdin = await runCli(['prompt', 'planner', '--task', '-'], { cwd: repo, stdin: 'TASK FROM STDIN' });
    assert.match(fromStdin.stdout, /## Task\n\nTASK FROM STDIN\n/);
    for (const argv of [['--task=-'], ['--stats', '--task', '-'], ['-']]) {
      const other = await runCli(['prompt', 'planner', ...argv], { cwd: repo, stdin: 'TASK FROM STDIN' });
      assert.equal(other.stdout, fromStdin.stdout, argv.join(' '));
    }
  });

  it('--stats prints tokens per part and what was pruned to stderr', async () => {
    const result = await runCli(['prompt', 'reviewer', '--task', 'Review', '--target', 'src/app.ts', '--stats'], { cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^prompt: ~\d+ tokens \(chars\), \d+ bytes; template: review_strict; output schema: review$/m);
    assert.match(result.stderr, /^part +tokens +bytes +files/m);
    for (const key of ['target_file', 'system_prompt', 'task', 'template']) assert.match(result.stderr, new RegExp(`^${key} +\\d+ +\\d+ +\\d+`, 'm'));
    assert.match(result.stderr, /^context budget: ~29000 tokens; pruned: nothing$/m);
    assert.doesNotMatch(result.stdout, /^part +tokens/m);
  });

  it('--tokenizer o200k counts exactly', async () => {
    const result = await runCli(['prompt', 'planner', '--task', 'Plan', '--stats', '--tokenizer', 'o200k'], { cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /tokens \(o200k\)/);
  });

  it('--json gives the prompt with its template, schema and stats', async () => {
    const result = await runCli(['prompt', 'worker', '--task', 'Do it', '--json'], { cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout) as { role: string; template: null; output_schema: string; prompt: string; stats: { prompt_tokens: number } };
    assert.equal(out.role, 'worker');
    assert.equal(out.template, null);
    assert.equal(out.output_schema, 'v2-result');
    assert.match(out.prompt, /## Task\n\nDo it/);
    assert.ok(out.stats.prompt_tokens > 0);
  });

  it('leaves instruction files out of the prompt when the adapter takes them as arguments', async () => {
    const own = await makeRepo({ 'README.md': '# x\n' });
    const plugins = await tempDir();
    await writeFiles(plugins, {
      'filecli.mjs': "export default { kind: 'adapter', name: 'filecli', bin: 'filecli', instructions: 'argument', command: () => ({ args: [] }), extract: () => ({ text: null, metrics: {} }) };\n",
    });
    await writeFiles(own, { '.supervisor/roles/filer.yaml': 'name: filer\nextends: oneshot\ncli: filecli\n' });
    const result = await runCli(['prompt', 'filer', '--task', 'T', '--plugin', `${plugins}/filecli.mjs`], { cwd: own });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /## Instructions: system\.md/);
    assert.match(result.stderr, /instruction files are handed to filecli as arguments, not printed: .*system\.md/);
    const inline = await runCli(['prompt', 'oneshot', '--task', 'T'], { cwd: own });
    assert.match(inline.stdout, /## Instructions: system\.md/);
  });

  it('an unknown role, or a role naming an unknown template, is a usage error', async () => {
    const unknown = await runCli(['prompt', 'nosuchrole', '--task', 'x'], { cwd: repo });
    assert.equal(unknown.code, 2);
    const own = await makeRepo({ '.supervisor/roles/odd.yaml': 'name: odd\nextends: implementer\ntemplate: nosuchtemplate\n' });
    const bad = await runCli(['prompt', 'odd', '--task', 'x', '--json'], { cwd: own });
    assert.equal(bad.code, 2);
    assert.equal((JSON.parse(bad.stderr) as { error: { code: string } }).error.code, 'TEMPLATE_NOT_ALLOWED');
  });

  it('requires --task', async () => {
    const result = await runCli(['prompt', 'planner'], { cwd: repo });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /task/);
    for (const argv of [['A', '--task', 'B'], ['-', '--task', 'B'], ['--task', '']]) {
      const bad = await runCli(['prompt', 'planner', ...argv], { cwd: repo });
      assert.equal(bad.code, 2, argv.join(' '));
      assert.match(bad.stderr, /more than once|empty/);
    }
    const positional = await runCli(['prompt', 'planner', 'Plan the greeting'], { cwd: repo });
    assert.match(positional.stdout, /## Task\n\nPlan the greeting\n/);
  });
});
