/** `supervisor trust [path]`: let a repository run its own code (plugins, templates, tools). */
import { resolve } from 'node:path';
import { errors } from '../../errors.ts';
import { defineCommand } from '../../command/command.ts';

export default defineCommand({
  command: 'trust [path]',
  describe: "Trust a repository (default: this one) to run its own plugins, templates and tools; --list, --remove",
  example: { command: '$0 trust --list', describe: 'the folders whose own plugins, templates and tools may run' },
  builder: (y) =>
    y
      .positional('path', { type: 'string', describe: 'Folder to trust or remove (default: the repository); folders inside it are trusted too' })
      .option('list', { type: 'boolean', default: false, describe: 'List the trusted folders' })
      .option('remove', { type: 'boolean', default: false, describe: 'Remove the folder from the trusted list' }),
  async run(args, ctx) {
    const store = await import('../../trust/store.ts');
    const home = ctx.deps.homeDir;
    if (args.list && args.remove) throw errors.usage('--list and --remove cannot be used together');
    if (args.list) {
      const list = await store.readTrustList(home);
      if (ctx.options.json) ctx.out(JSON.stringify({ file: store.trustFilePath(home), trusted: list }, null, 2));
      else if (list.length) ctx.out(list.join('\n'));
      else ctx.warn(`No trusted folders (${store.trustFilePath(home)}). Trust one with: supervisor trust <path>`);
      return 0;
    }
    const path = typeof args.path === 'string' ? resolve(ctx.deps.cwd, args.path) : ctx.repoRoot;
    if (args.remove) {
      const { path: real, removed } = await store.removeTrusted(home, path);
      if (ctx.options.json) ctx.out(JSON.stringify({ path: real, removed }));
      else ctx.out(`No longer trusted: ${real}`);
      return 0;
    }
    const { path: real, added } = await store.addTrusted(home, path);
    if (ctx.options.json) ctx.out(JSON.stringify({ path: real, added }));
    else ctx.out(added ? `Trusted: ${real}\nIts plugins (.supervisor/plugins), templates (.supervisor/prompts) and node_modules/.bin/repomix now load.` : `Already trusted: ${real}`);
    return 0;
  },
});
