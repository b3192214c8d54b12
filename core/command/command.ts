/** The shape of one CLI command; heavy modules are imported inside `run` so start-up stays fast. */
import type { Argv } from 'yargs';
import type { CliContext } from './context.ts';

export type Args = Record<string, unknown> & { _: (string | number)[] };

export interface CommandDef {
  /** yargs command string, e.g. "show <name>". */
  command: string;
  describe: string;
  /** One runnable example for the command's --help ($0 is the program name); every visible leaf command has one. */
  example?: { command: string; describe: string };
  builder?: (yargs: Argv) => Argv;
  /** Does the work; returns the exit code. */
  run?: (args: Args, ctx: CliContext) => Promise<number>;
  subcommands?: CommandDef[];
}

export function defineCommand(def: CommandDef): CommandDef {
  return def;
}
