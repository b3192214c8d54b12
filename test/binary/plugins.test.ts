import assert from 'node:assert/strict';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRepo, writeFiles } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox } from './binary.ts';

const goodPlugins = fileURLToPath(new URL('../fixtures/plugins/good/', import.meta.url));

interface Listed {
  kind: string;
  name: string;
  layer: string;
  source: string;
}

describe('plugins in the binary', binarySuite(), () => {
  it('loads .ts .mts .cts .js .mjs .cjs plugins from plugins/ beside the executable', async () => {
    const box = await makeSandbox();
    await cp(goodPlugins, join(box.binDir, 'plugins'), { recursive: true });
    const repo = await makeRepo();
    const run = await box.run(['plugins', 'list', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const listed = JSON.parse(run.stdout) as Listed[];
    for (const file of ['ts-adapter.ts', 'mts-packer.mts', 'cts-parser.cts', 'js-parser.js', 'mjs-packer.mjs', 'cjs-adapter.cjs']) {
      const entry = listed.find((p) => p.source === join(box.binDir, 'plugins', file));
      assert.ok(entry, `${file} loaded`);
      assert.equal(entry.layer, 'beside-binary');
    }
  });

  it('writes starters with "plugins new" that load unchanged, and lists them', async () => {
    const box = await makeSandbox();
    const repo = await makeRepo();
    for (const [kind, name] of [['adapter', 'aider'], ['packer', 'notes'], ['parser', 'plain'], ['sandbox', 'boxy']] as const) {
      const made = await box.run(['plugins', 'new', kind, name], { cwd: repo });
      assert.equal(made.code, 0, made.stderr);
      const checked = await box.run(['plugins', 'check', `.supervisor/plugins/${name}.ts`, '--json'], { cwd: repo });
      assert.equal(checked.code, 0, checked.stderr);
      assert.deepEqual(JSON.parse(checked.stdout), { ok: true, file: join(repo, '.supervisor', 'plugins', `${name}.ts`), kind, name });
    }
    const list = await box.run(['plugins', 'list', '--json', '--trust'], { cwd: repo });
    const names = (JSON.parse(list.stdout) as Listed[]).filter((p) => p.layer === 'repo').map((p) => p.name);
    assert.deepEqual(names.sort(), ['aider', 'boxy', 'notes', 'plain']);
  });

  it('gives plugins the binary\'s own API instance, through import and require alike', async () => {
    const box = await makeSandbox();
    const repo = await makeRepo();
    // Each parser asks the core to validate {} (which fails) and reports whether the error the
    // core threw is an instance of the SupervisorError class the plugin imported.
    const body = (name: string) => `
  kind: 'parser',
  name: '${name}',
  parse(text, ctx) {
    try {
      return ctx.validate({});
    } catch (error) {
      throw errors.parseInvalidJson((error instanceof SupervisorError ? 'same class: ' : 'another class: ') + error.code);
    }
  },`;
    await writeFiles(repo, {
      '.supervisor/plugins/esm-check.mts': `import { definePlugin, errors, SupervisorError } from 'supervisor/plugin';\nexport default definePlugin({${body('esm-check')}\n});\n`,
      '.supervisor/plugins/cjs-check.cjs': `const { definePlugin, errors, SupervisorError } = require('supervisor/plugin');\nmodule.exports = definePlugin({${body('cjs-check')}\n});\n`,
      'answer.md': 'hello\n',
    });
    for (const parser of ['esm-check', 'cjs-check']) {
      const run = await box.run(['parse', 'answer.md', '--parser', parser, '--role', 'reviewer', '--json', '--trust'], { cwd: repo });
      assert.equal(run.code, 3, run.stderr);
      const error = (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'PARSE_INVALID_JSON');
      assert.match(error.message, /same class: OUTPUT_INVALID/, parser);
    }
  });

  it('loads an ES module plugin with top-level await, relative imports and Node built-ins', async () => {
    const box = await makeSandbox();
    const repo = await makeRepo();
    await writeFiles(repo, {
      '.supervisor/plugins/late-packer.mjs': `import { definePlugin } from 'supervisor/plugin';
import { join } from 'node:path';
import { suffix } from './helpers/suffix.mjs';
const name = await Promise.resolve(join('la', 'te').replace('/', '') + suffix);
// The name must equal the file stem: late-packer.mjs
export default definePlugin({ kind: 'packer', name, async pack() { return { parts: [], notices: [] }; } });
`,
      '.supervisor/plugins/helpers/suffix.mjs': `export const suffix = '-packer';\n`,
    });
    const run = await box.run(['plugins', 'list', '--json', '--trust'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    assert.ok((JSON.parse(run.stdout) as Listed[]).some((p) => p.name === 'late-packer' && p.layer === 'repo'));
    assert.doesNotMatch(run.stderr, /ExperimentalWarning/);
  });

  it('stops with a clear error (exit 2, the file and line named) on a broken plugin given with --plugin', async () => {
    const box = await makeSandbox();
    const repo = await makeRepo();
    const dir = join(repo, '.supervisor', 'plugins');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'broken.ts'), `import { definePlugin } from 'supervisor/plugin';\nexport default definePlugin({ kind: 'adapter', name: 'broken', command( {;\n`);
    const json = await box.run(['plugins', 'list', '--json', '--plugin', join(dir, 'broken.ts')], { cwd: repo });
    assert.equal(json.code, 2);
    assert.equal(json.stdout, '');
    const error = (JSON.parse(json.stderr) as { error: { code: string; details: { file: string; line: number } } }).error;
    assert.equal(error.code, 'PLUGIN_IMPORT');
    assert.equal(error.details.file, join(dir, 'broken.ts'));
    assert.equal(error.details.line, 2);
    const text = await box.run(['plugins', 'check', join(dir, 'broken.ts')], { cwd: repo });
    assert.equal(text.code, 2);
    assert.match(text.stderr, /error \[PLUGIN_IMPORT\]: Plugin .*broken\.ts:2:\d+ failed to load/);
    assert.doesNotMatch(text.stderr, /\n\s+at /, 'no stack trace without --debug');
  });

  it('names the field when a plugin has the wrong shape', async () => {
    const box = await makeSandbox();
    const repo = await makeRepo();
    await writeFiles(repo, { '.supervisor/plugins/shapeless.cjs': `module.exports = { kind: 'adapter', name: 'shapeless', bin: 'x' };\n` });
    const run = await box.run(['plugins', 'check', '.supervisor/plugins/shapeless.cjs', '--json'], { cwd: repo });
    assert.equal(run.code, 2);
    assert.equal((JSON.parse(run.stderr) as { error: { code: string } }).error.code, 'PLUGIN_SHAPE');
  });
});
