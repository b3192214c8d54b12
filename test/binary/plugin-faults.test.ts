/**
 * Plugins that misbehave, through the built binary (issue 13 items 4 and 10, issue 14 item 5):
 * a hook or an import that never answers, a wrong shape, a polluted Object.prototype, console
 * output, a broken file among good ones, a name that is not the file's, and typings for authors
 * who have only the binary.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo, writeFiles } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const tsc = fileURLToPath(new URL('../../node_modules/.bin/tsc', import.meta.url));
/** A small limit: a hook that never answers is cut off after it, not after the default minute. */
const LIMIT = { SUPERVISOR_PLUGIN_TIMEOUT_MS: '1500' };
const METRICS = '{ inputTokens: null, outputTokens: null, cachedTokens: null, costUsd: null, durationMs: null, turns: null, sessionId: null, model: null }';

/** An adapter that answers through the binary itself (no CLI needed), with its hooks as given. */
function adapter(name: string, hooks: { command?: string; extract?: string; top?: string }): string {
  return `${hooks.top ?? ''}
export default {
  kind: 'adapter', name: '${name}', bin: 'true', selfHosted: true,
  command: ${hooks.command ?? "(request, ctx) => ({ bin: ctx.self.bin, args: [...ctx.self.args, '__emit', 'answer.md'] })"},
  extract: ${hooks.extract ?? `(result) => ({ text: result.stdout, metrics: ${METRICS} })`},
};
`;
}

interface ErrorJson {
  error: { code: string; message: string; details: Record<string, unknown> };
}
const errorOf = (stderr: string) => (JSON.parse(stderr.trim().split('\n').pop()!) as ErrorJson).error;

describe('plugins that misbehave, in the binary', binarySuite(), () => {
  let box: Sandbox;
  let repo: string;
  before(async () => {
    box = await makeSandbox();
    repo = await makeRepo({ 'README.md': '# r\n', 'answer.md': '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n' });
    await writeFiles(join(repo, 'p'), {
      'hang-extract.mjs': adapter('hang-extract', { extract: '() => new Promise(() => {})' }),
      'hang-command.mjs': adapter('hang-command', { command: '() => new Promise(() => {})' }),
      'hang-import.mjs': `await new Promise(() => {});\n${adapter('hang-import', {})}`,
      'string-args.mjs': adapter('string-args', { command: "() => ({ args: 'a string' })" }),
      'polluter.mjs': adapter('polluter', { extract: `(result) => { Object.prototype.isAdmin = true; return { text: result.stdout, metrics: ${METRICS} }; }` }),
      'noisy.mjs': adapter('noisy', {
        top: "console.log('NOISE at import');",
        extract: `(result) => { console.log('NOISE in extract'); console.info('NOISE info'); return { text: result.stdout, metrics: ${METRICS} }; }`,
      }),
      'wrongname.mjs': "export default { kind: 'parser', name: 'different', parse: (text, ctx) => ctx.validate({}) };\n",
    });
  });

  const run = (args: string[]) => box.run(args, { cwd: repo, env: LIMIT });

  it('a promise that never settles in extract() or command() is PLUGIN_TIMEOUT naming plugin, hook and limit, not exit 0 with nothing said', async () => {
    for (const [name, hook] of [['hang-extract', 'extract'], ['hang-command', 'command']] as const) {
      const result = await run(['run', 'reviewer', '--cli', name, '--plugin', `p/${name}.mjs`, '--task', 'Review', '--json', '--retries', '0']);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, '');
      const error = errorOf(result.stderr);
      assert.equal(error.code, 'PLUGIN_TIMEOUT');
      assert.deepEqual(error.details, { plugin: name, hook, limit_ms: 1500 });
    }
  });

  it('a module that awaits forever at import: plugins check and run fail with PLUGIN_TIMEOUT, doctor says so and still reports', async () => {
    const check = await run(['plugins', 'check', 'p/hang-import.mjs', '--json']);
    assert.equal(check.code, 2);
    assert.equal(errorOf(check.stderr).code, 'PLUGIN_TIMEOUT');
    const started = await run(['run', 'reviewer', '--cli', 'hang-import', '--plugin', 'p/hang-import.mjs', '--task', 'Review', '--json']);
    assert.equal(started.code, 2);
    assert.equal(errorOf(started.stderr).code, 'PLUGIN_TIMEOUT');

    const home = box.home;
    await writeFiles(home, { '.supervisor/plugins/hang-import.mjs': `await new Promise(() => {});\n${adapter('hang-import', {})}` });
    const doctor = await run(['doctor', '--json']);
    assert.equal(doctor.code, 0, doctor.stderr);
    const report = JSON.parse(doctor.stdout) as { broken_plugins: { file: string; code: string }[] };
    assert.deepEqual(report.broken_plugins.map((b) => [b.file, b.code]), [[join(home, '.supervisor', 'plugins', 'hang-import.mjs'), 'PLUGIN_TIMEOUT']]);
    await writeFile(join(home, '.supervisor', 'plugins', 'hang-import.mjs'), adapter('hang-import', {}));
  });

  it('a wrong shape from command() is PLUGIN_SHAPE naming plugin, hook and field (run and plugins check --sample alike)', async () => {
    const result = await run(['run', 'reviewer', '--cli', 'string-args', '--plugin', 'p/string-args.mjs', '--task', 'Review', '--json']);
    assert.equal(result.code, 2, result.stderr);
    const error = errorOf(result.stderr);
    assert.equal(error.code, 'PLUGIN_SHAPE');
    assert.equal(error.details.plugin, 'string-args');
    assert.equal(error.details.hook, 'command');
    assert.match(String((error.details.problems as string[])[0]), /^args: .*Array/);

    const sampled = await run(['plugins', 'check', 'p/string-args.mjs', '--sample', 'answer.md', '--json']);
    assert.equal(sampled.code, 2);
    assert.equal(errorOf(sampled.stderr).code, 'PLUGIN_SHAPE');
  });

  it('plugins check --sample runs a good adapter\'s hooks on a recorded output and shows what they returned', async () => {
    const result = await run(['plugins', 'check', 'p/noisy.mjs', '--sample', 'answer.md', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { kind: string; command: { args: string[] }; extraction: { text: string }; answer: { ok: boolean; output: { status: string } } };
    assert.equal(report.kind, 'adapter');
    assert.ok(report.command.args.includes('__emit'));
    assert.match(report.extraction.text, /APPROVED/);
    assert.deepEqual([report.answer.ok, report.answer.output.status], [true, 'APPROVED']);
  });

  it('a plugin that pollutes Object.prototype gets PLUGIN_SHAPE naming it, not INTERNAL', async () => {
    const result = await run(['run', 'reviewer', '--cli', 'polluter', '--plugin', 'p/polluter.mjs', '--task', 'Review', '--json']);
    assert.equal(result.code, 2, result.stderr);
    const error = errorOf(result.stderr);
    assert.equal(error.code, 'PLUGIN_SHAPE');
    assert.equal(error.details.plugin, 'polluter');
    assert.match(error.message, /Object\.prototype\.isAdmin/);
  });

  it("a plugin's console output goes to stderr: stdout stays the JSON result", async () => {
    const result = await run(['run', 'reviewer', '--cli', 'noisy', '--plugin', 'p/noisy.mjs', '--task', 'Review', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as { status: string }).status, 'pass');
    assert.match(result.stderr, /NOISE at import[\s\S]*NOISE in extract[\s\S]*NOISE info/);
    const listed = await run(['plugins', 'list', '--json', '--plugin', 'p/noisy.mjs']);
    assert.doesNotThrow(() => JSON.parse(listed.stdout));
  });

  it('one broken plugin file does not break every command: others go on, doctor and plugins list name it with line and column', async () => {
    const own = await makeRepo();
    await writeFiles(own, {
      '.supervisor/plugins/broken.mjs': "export default {\n  kind: 'parser',\n  name: 'broken',\n  parse(text) { return {; },\n};\n",
      '.supervisor/plugins/fine.mjs': "export default { kind: 'parser', name: 'fine', parse: (text, ctx) => ctx.validate(JSON.parse(text)) };\n",
    });
    const listed = await box.run(['plugins', 'list', '--json', '--trust'], { cwd: own });
    assert.equal(listed.code, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout) as { name: string; status: string; error?: { message: string } }[];
    assert.equal(rows.find((r) => r.name === 'fine')?.status, 'loaded');
    const broken = rows.find((r) => r.name === 'broken');
    assert.equal(broken?.status, 'broken');
    assert.match(broken?.error?.message ?? '', /broken\.mjs:4:\d+ failed to load/);
    const doctor = await box.run(['doctor', '--trust'], { cwd: own });
    assert.equal(doctor.code, 0, doctor.stderr);
    assert.match(doctor.stdout, /broken plugins \(not loaded\):\n.*broken\.mjs:4:\d+/);
    const needed = await box.run(['parse', '--parser', 'broken', '--trust', '-'], { cwd: own, stdin: '{}' });
    assert.equal(needed.code, 2);
    assert.match(needed.stderr, /PLUGIN_IMPORT.*broken\.mjs:4:\d+/);
  });

  it("a plugin's name must equal its file stem", async () => {
    const result = await run(['plugins', 'check', 'p/wrongname.mjs', '--json']);
    assert.equal(result.code, 2);
    const error = errorOf(result.stderr);
    assert.equal(error.code, 'PLUGIN_NAME');
    assert.deepEqual(error.details, { file: join(repo, 'p', 'wrongname.mjs'), name: 'different', stem: 'wrongname' });
  });

  it('plugins new writes typings and a tsconfig that tsc checks a plugin with; plugins types prints the same declarations', async () => {
    const own = await makeRepo();
    for (const [kind, name] of [['adapter', 'aider'], ['parser', 'plain']] as const) {
      const made = await box.run(['plugins', 'new', kind, name], { cwd: own });
      assert.equal(made.code, 0, made.stderr);
    }
    const dir = join(own, '.supervisor', 'plugins');
    const printed = await box.run(['plugins', 'types'], { cwd: own });
    assert.match(printed.stdout, /declare module "supervisor\/plugin"/);
    const good = spawnSync(tsc, ['-p', dir], { encoding: 'utf8' });
    assert.equal(good.status, 0, good.stdout + good.stderr);
    // The typings catch what PLUGIN_SHAPE catches at run time.
    await writeFile(join(dir, 'wrong.ts'), "import { definePlugin } from 'supervisor/plugin';\nexport default definePlugin({ kind: 'adapter', name: 'wrong', bin: 'x', command: () => ({ args: 'a string' }), extract: () => ({ text: null, metrics: null }) });\n");
    const bad = spawnSync(tsc, ['-p', dir], { encoding: 'utf8' });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stdout, /wrong\.ts.*TS2322/);
  });
});
