import { readFile } from 'node:fs/promises';
import { defineCommand } from '../command.ts';

// Hidden: prints a file to stdout and exits with the given code. Lets adapters that answer
// without a real CLI (replay) still run as a real process, from source and in the binary.
export default defineCommand({
  command: '__emit <file>',
  describe: false as unknown as string,
  builder: (y) =>
    y
      .positional('file', { type: 'string' })
      .option('stderr-file', { type: 'string' })
      .option('exit-code', { type: 'number', default: 0 })
      .option('delay-ms', { type: 'number', default: 0 }),
  async run(args, ctx) {
    const delay = Number(args['delay-ms']);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    ctx.deps.stdout.write(await readFile(String(args.file), 'utf8'));
    if (typeof args['stderr-file'] === 'string') ctx.deps.stderr.write(await readFile(args['stderr-file'], 'utf8'));
    return Number(args['exit-code']);
  },
});
