import { mkdir, writeFile, access } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { errors } from '../../errors.ts';
import { PLUGIN_KINDS, type PluginKind } from '../../plugin-api/contracts.ts';
import { defineCommand } from '../../command/command.ts';
import { renderTable } from '../../text/table.ts';
import type { SampleReport } from '../check-sample.ts';

interface ListedPlugin {
  kind: string | null;
  name: string;
  layer: string;
  source: string;
  overrides: string | null;
  description: string;
  /** loaded; broken (failed to load, see error); untrusted (the repository is not trusted). */
  status: 'loaded' | 'broken' | 'untrusted';
  error?: { code: string; message: string };
}

function note(row: ListedPlugin): string {
  if (row.status === 'broken') return `BROKEN: ${row.error?.message ?? ''}`;
  if (row.status === 'untrusted') return 'not loaded: repository not trusted (supervisor trust)';
  return row.overrides ? `overrides ${row.overrides}` : '';
}

const list = defineCommand({
  command: 'list',
  describe: 'List loaded plugins with their kind, source file, and what they override',
  example: { command: '$0 plugins list --no-user-plugins', describe: 'the built-in plugins only' },
  async run(_args, ctx) {
    const registry = await ctx.registry();
    const { pluginStem } = await import('../../plugins/load.ts');
    const rows: ListedPlugin[] = registry.list().map((e) => ({
      kind: e.plugin.kind,
      name: e.plugin.name,
      layer: e.layer,
      source: e.source,
      overrides: e.overrides ?? null,
      description: e.plugin.description ?? '',
      status: 'loaded',
    }));
    // Files that are there but not loaded: broken ones, and an untrusted repository's.
    for (const { file, layer, error } of await ctx.brokenPlugins()) {
      rows.push({ kind: null, name: pluginStem(file), layer, source: file, overrides: null, description: '', status: 'broken', error: { code: error.code, message: error.message } });
    }
    for (const source of await ctx.pluginSources()) {
      for (const file of source.untrusted ?? []) rows.push({ kind: null, name: pluginStem(file), layer: source.layer, source: file, overrides: null, description: '', status: 'untrusted' });
    }
    if (ctx.options.json) ctx.out(JSON.stringify(rows, null, 2));
    else ctx.out(renderTable(['KIND', 'NAME', 'SOURCE', 'NOTE'], rows.map((r) => [r.kind ?? '?', r.name, r.source, note(r)])));
    return 0;
  },
});

const create = defineCommand({
  command: 'new <kind> <name>',
  describe: 'Write a typed, commented, working starter plugin into <repo>/.supervisor/plugins/',
  example: { command: '$0 plugins new adapter aider', describe: 'write .supervisor/plugins/aider.ts, a working adapter to edit' },
  builder: (y) =>
    y
      .positional('kind', { choices: PLUGIN_KINDS, describe: PLUGIN_KINDS.join(', ') })
      .positional('name', { type: 'string', describe: 'Plugin name (letters, digits, - and _)' })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite an existing file' }),
  async run(args, ctx) {
    const name = String(args.name);
    const { PLUGIN_NAME_PATTERN } = await import('../../plugin-api/shape.ts');
    if (!PLUGIN_NAME_PATTERN.test(name)) {
      throw errors.usage(`Invalid plugin name "${name}"`, 'Use letters, digits, "-" and "_", starting with a letter.');
    }
    const { STARTERS } = await import('../../plugins/starter.ts');
    const dir = join(ctx.repoRoot, '.supervisor', 'plugins');
    const file = join(dir, `${name}.ts`);
    if (!args.force && (await access(file).then(() => true, () => false))) throw errors.fileExists(file);
    await mkdir(dir, { recursive: true });
    await writeFile(file, STARTERS[args.kind as PluginKind](name));
    // Typings beside the plugin, so an editor and `tsc --noEmit` check it with only the binary at hand.
    const types = await import('../../plugins/plugin-types.ts');
    const declarations = join(dir, types.PLUGIN_TYPES_FILE);
    await writeFile(declarations, await types.loadPluginTypes());
    const tsconfig = join(dir, 'tsconfig.json');
    if (!(await access(tsconfig).then(() => true, () => false))) await writeFile(tsconfig, types.pluginTsconfig());
    const trusted = (await ctx.trust()).trusted;
    if (ctx.options.json) ctx.out(JSON.stringify({ file, kind: args.kind, name, types: declarations, tsconfig }));
    else {
      const shown = relative(ctx.deps.cwd, file) || file;
      ctx.out(`Wrote ${shown} (types: ${types.PLUGIN_TYPES_FILE} and tsconfig.json beside it)\nCheck it with: supervisor plugins check ${shown}`);
    }
    if (!trusted) ctx.warn(`notice: this repository is not trusted, so its plugins do not load in other commands until you run: supervisor trust ${ctx.repoRoot}`);
    return 0;
  },
});

const check = defineCommand({
  command: 'check <file>',
  describe: 'Load one plugin file and check its shape; with --sample, run its hooks on a recorded output and check what they return',
  example: { command: '$0 plugins check .supervisor/plugins/aider.ts --sample aider-stdout.txt', describe: 'load the plugin and run its hooks on a recorded CLI output' },
  builder: (y) =>
    y
      .positional('file', { type: 'string', describe: 'Path of the plugin file' })
      .option('sample', { type: 'string', describe: "A recorded output: an adapter's CLI stdout (command() and extract() run), or a model's answer for a parser" }),
  async run(args, ctx) {
    const { loadPluginFile } = await import('../../plugins/load.ts');
    const { isPluginFileOnDisk } = await import('../../plugins/discover.ts');
    const file = resolve(ctx.deps.cwd, String(args.file));
    if (!(await isPluginFileOnDisk(file))) throw errors.pluginPath(String(args.file));
    await ctx.deps.installPluginApi();
    const plugin = await loadPluginFile(file, ctx.deps.importModule);
    if (typeof args.sample !== 'string') {
      if (ctx.options.json) ctx.out(JSON.stringify({ ok: true, file, kind: plugin.kind, name: plugin.name }));
      else ctx.out(`ok: ${plugin.kind} "${plugin.name}" (${file})`);
      return 0;
    }
    const { readFile } = await import('node:fs/promises');
    const samplePath = resolve(ctx.deps.cwd, args.sample);
    const sample = await readFile(samplePath, 'utf8').catch((cause: unknown) => Promise.reject(errors.fileRead(samplePath, cause)));
    const { checkSample } = await import('../check-sample.ts');
    const report = await checkSample(plugin, file, sample, { repoRoot: ctx.repoRoot, env: ctx.deps.env, notice: (m) => ctx.warn(`notice: ${m}`) });
    if (ctx.options.json) ctx.out(JSON.stringify({ ok: true, file, kind: plugin.kind, name: plugin.name, sample: samplePath, ...report }, null, 2));
    else ctx.out(renderSampleReport(plugin.kind, plugin.name, report));
    return 0;
  },
});

function renderSampleReport(kind: string, name: string, report: SampleReport): string {
  const lines = [`ok: ${kind} "${name}": its hooks returned the right shapes`];
  if (report.command) lines.push(`command(): ${JSON.stringify({ ...report.command, stdin: report.command.stdin === undefined ? undefined : `(${report.command.stdin.length} characters)` })}`);
  if (report.extraction) {
    const { text, metrics, failure } = report.extraction;
    lines.push(`extract(): text ${text === null ? 'null' : `${text.length} characters`}${failure ? `, failure ${failure.class}: ${failure.detail}` : ''}`);
    lines.push(`  metrics: ${JSON.stringify(metrics)}`);
  }
  lines.push(report.answer.ok ? `answer: ${JSON.stringify(report.answer.output)}` : `answer: none (${report.answer.code}: ${report.answer.message})`);
  return lines.join('\n');
}

const types = defineCommand({
  command: 'types',
  describe: "Print the TypeScript declarations of 'supervisor/plugin' (plugins new writes them beside a new plugin)",
  example: { command: '$0 plugins types > .supervisor/plugins/supervisor-plugin.d.ts', describe: "save the plugin API's typings beside your plugins" },
  async run(_args, ctx) {
    const { loadPluginTypes } = await import('../../plugins/plugin-types.ts');
    ctx.deps.stdout.write(await loadPluginTypes());
    return 0;
  },
});

export default defineCommand({
  command: 'plugins',
  describe: 'List, create and check plugins',
  subcommands: [list, create, check, types],
});
