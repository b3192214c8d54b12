import { mkdir, writeFile, access } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { errors } from '../../errors.ts';
import { PLUGIN_KINDS, type PluginKind } from '../../plugin/contracts.ts';
import { defineCommand } from '../command.ts';
import { renderTable } from '../table.ts';

const list = defineCommand({
  command: 'list',
  describe: 'List loaded plugins with their kind, source file, and what they override',
  async run(_args, ctx) {
    const registry = await ctx.registry();
    const rows = registry.list().map((e) => ({
      kind: e.plugin.kind,
      name: e.plugin.name,
      layer: e.layer,
      source: e.source,
      overrides: e.overrides ?? null,
      description: e.plugin.description ?? '',
    }));
    if (ctx.options.json) ctx.out(JSON.stringify(rows, null, 2));
    else
      ctx.out(
        renderTable(
          ['KIND', 'NAME', 'SOURCE', 'NOTE'],
          rows.map((r) => [r.kind, r.name, r.source, r.overrides ? `overrides ${r.overrides}` : '']),
        ),
      );
    return 0;
  },
});

const create = defineCommand({
  command: 'new <kind> <name>',
  describe: 'Write a typed, commented, working starter plugin into <repo>/.supervisor/plugins/',
  builder: (y) =>
    y
      .positional('kind', { choices: PLUGIN_KINDS, describe: 'adapter, packer, parser or plan-reader' })
      .positional('name', { type: 'string', describe: 'Plugin name (letters, digits, - and _)' })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite an existing file' }),
  async run(args, ctx) {
    const name = String(args.name);
    const { PLUGIN_NAME_PATTERN } = await import('../../plugin/shape.ts');
    if (!PLUGIN_NAME_PATTERN.test(name)) {
      throw errors.usage(`Invalid plugin name "${name}"`, 'Use letters, digits, "-" and "_", starting with a letter.');
    }
    const { STARTERS } = await import('../../plugins/starter.ts');
    const dir = join(ctx.repoRoot, '.supervisor', 'plugins');
    const file = join(dir, `${name}.ts`);
    if (!args.force && (await access(file).then(() => true, () => false))) throw errors.fileExists(file);
    await mkdir(dir, { recursive: true });
    await writeFile(file, STARTERS[args.kind as PluginKind](name));
    if (ctx.options.json) ctx.out(JSON.stringify({ file, kind: args.kind, name }));
    else ctx.out(`Wrote ${relative(ctx.deps.cwd, file) || file}\nCheck it with: supervisor plugins check ${relative(ctx.deps.cwd, file)}`);
    return 0;
  },
});

const check = defineCommand({
  command: 'check <file>',
  describe: 'Load one plugin file and check its shape',
  builder: (y) => y.positional('file', { type: 'string', describe: 'Path of the plugin file' }),
  async run(args, ctx) {
    const { loadPluginFile } = await import('../../plugins/load.ts');
    const { isPluginFileOnDisk } = await import('../../plugins/discover.ts');
    const file = resolve(ctx.deps.cwd, String(args.file));
    if (!(await isPluginFileOnDisk(file))) throw errors.pluginPath(String(args.file));
    await ctx.deps.installPluginApi();
    const plugin = await loadPluginFile(file, ctx.deps.importModule);
    if (ctx.options.json) ctx.out(JSON.stringify({ ok: true, file, kind: plugin.kind, name: plugin.name }));
    else ctx.out(`ok: ${plugin.kind} "${plugin.name}" (${file})`);
    return 0;
  },
});

export default defineCommand({
  command: 'plugins',
  describe: 'List, create and check plugins',
  subcommands: [list, create, check],
});
