import { readFile } from 'node:fs/promises';
import { defineCommand } from '../../command/command.ts';

// Hidden: prints a file to stdout. Lets adapters that answer without a real CLI (replay) still
// run as a real process, from source and in the binary. `--apply` first applies a canned change
// (a patch) to the work tree it runs in, as a CLI would edit it.
export default defineCommand({
  command: '__emit <file>',
  describe: false as unknown as string,
  builder: (y) =>
    y
      .positional('file', { type: 'string' })
      .option('apply', { type: 'string', hidden: true })
      .option('git-dir', { type: 'string', hidden: true })
      .option('common-dir', { type: 'string', hidden: true }),
  async run(args, ctx) {
    if (typeof args.apply === 'string') {
      const { emitCannedChange } = await import('../emit-change.ts');
      const code = await emitCannedChange(args, ctx);
      if (code !== 0) return code;
    }
    ctx.deps.stdout.write(await readFile(String(args.file), 'utf8'));
    return 0;
  },
});
