import { readFile } from 'node:fs/promises';
import { defineCommand } from '../../command/command.ts';

// Hidden: prints a file to stdout. Lets adapters that answer without a real CLI (replay) still
// run as a real process, from source and in the binary.
export default defineCommand({
  command: '__emit <file>',
  describe: false as unknown as string,
  builder: (y) => y.positional('file', { type: 'string' }),
  async run(args, ctx) {
    ctx.deps.stdout.write(await readFile(String(args.file), 'utf8'));
    return 0;
  },
});
