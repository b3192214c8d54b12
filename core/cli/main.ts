/** The CLI entry: parses argv with yargs, runs one command, renders errors, returns the exit code. */
import yargs, { type Argv } from 'yargs';
import type { Args, CommandDef } from './command.ts';
import { commands } from './commands/index.ts';
import { createCliContext, type GlobalOptions } from './context.ts';
import { defaultDeps, type CliDeps } from './deps.ts';
import { describeParseFailure } from './parse-failure.ts';
import { renderError } from './render-error.ts';
import { VERSION } from '../version.ts';

type Action = { def: CommandDef; args: Args };

/**
 * A repeatable option takes one value per occurrence (`--target a.js "task"` keeps "task" as
 * the positional it is); yargs would otherwise let an array option swallow every word after it.
 * Applied to every array option, so a new one cannot forget it.
 */
function oneValuePerFlag(parser: Argv): Argv {
  // getOptions() is yargs API that its typings leave out.
  const { array, key } = (parser as unknown as { getOptions(): { array: string[]; key: Record<string, boolean> } }).getOptions();
  let out = parser;
  for (const name of array) if (key[name]) out = out.nargs(name, 1);
  return out;
}

const GLOBAL_OPTIONS = ['json', 'debug', 'repo', 'plugin', 'user-plugins', 'trust', 'help', 'version'];

/** A command's help lists its own options first, then the global ones under their own heading. */
function ownOptionsFirst(parser: Argv): Argv {
  const { key } = (parser as unknown as { getOptions(): { key: Record<string, boolean> } }).getOptions();
  const own = Object.keys(key).filter((name) => !GLOBAL_OPTIONS.includes(name) && !/[A-Z]/.test(name) && name !== 'h' && name !== '$0');
  const positionals = (parser as unknown as { getGroups(): Record<string, string[]> }).getGroups()['Positionals:'] ?? [];
  const options = own.filter((name) => !positionals.includes(name));
  return (options.length ? parser.group(options, 'Options:') : parser).group(GLOBAL_OPTIONS, 'Global options:');
}

function addCommand(parser: Argv, def: CommandDef, select: (action: Action) => void): Argv {
  return parser.command(
    def.command,
    def.describe,
    (y: Argv) => {
      let built = oneValuePerFlag(def.builder ? def.builder(y) : y);
      if (!def.subcommands?.length) built = ownOptionsFirst(built);
      for (const sub of def.subcommands ?? []) built = addCommand(built, sub, select);
      if (def.subcommands?.length) built = built.demandCommand(1, `Choose a subcommand of "${def.command}".`);
      return built;
    },
    (args) => {
      if (def.run) select({ def, args: args as Args });
    },
  );
}

function buildParser(select: (action: Action) => void, columns: number | undefined): Argv {
  let parser: Argv = yargs()
    .scriptName('supervisor')
    .usage('$0 <command> [options]\n\nRuns AI coding CLIs as workers in roles, in isolated git worktrees, and prints one validated result.')
    .version(VERSION)
    .option('json', { type: 'boolean', default: false, describe: 'Machine-readable output on stdout (errors as JSON on stderr)' })
    .option('debug', { type: 'boolean', default: false, describe: 'Show stack traces and internal detail' })
    .option('repo', { type: 'string', describe: 'Repository to work on (default: the git repository around the current folder)' })
    .option('plugin', { type: 'string', array: true, default: [] as string[], describe: 'Load a plugin file or folder (repeatable; overrides all others)' })
    .option('user-plugins', { type: 'boolean', default: true, describe: 'Load plugins from ~/.supervisor/plugins and <repo>/.supervisor/plugins (--no-user-plugins: built-ins only)' })
    .option('trust', { type: 'boolean', default: false, describe: "Trust the repository for this command: load its own plugins, templates and tools (see: supervisor trust)" })
    .strict()
    .demandCommand(1, 'Choose a command.')
    .help()
    .alias('help', 'h')
    .wrap(Math.min(110, columns ?? 100))
    .epilogue('Exit codes: 0 pass, 1 gaps, 2 usage/config error, 3 no valid output, 4 CLI failed, 5 workflow awaiting approval, 130 interrupted (129 SIGHUP, 143 SIGTERM).\nDocs: README.md. Plugins: supervisor plugins --help.');
  parser = oneValuePerFlag(parser);
  for (const def of commands) parser = addCommand(parser, def, select);
  return parser;
}

function globalOptions(args: Args): GlobalOptions {
  return {
    json: args.json === true,
    debug: args.debug === true,
    repo: typeof args.repo === 'string' ? args.repo : undefined,
    plugin: (args.plugin as string[] | undefined) ?? [],
    userPlugins: args['user-plugins'] !== false,
    trust: args.trust === true,
  };
}

interface ParseOutcome {
  error: Error | undefined;
  output: string;
  action: Action | undefined;
}

/** Options whose value may be "-" (stdin); yargs would otherwise read a lone "-" as a positional. */
const STDIN_OPTIONS = new Set(['--task']);

export function joinStdinValues(argv: string[]): string[] {
  const out: string[] = [];
  for (const token of argv) {
    const previous = out[out.length - 1];
    if (token === '-' && previous !== undefined && STDIN_OPTIONS.has(previous)) out[out.length - 1] = `${previous}=-`;
    else out.push(token);
  }
  return out;
}

function parse(argv: string[], columns: number | undefined): Promise<ParseOutcome> {
  let action: Action | undefined;
  const parser = buildParser((chosen) => (action = chosen), columns);
  return new Promise((resolve) => {
    void parser.parse(joinStdinValues(argv), {}, (error: Error | undefined, _args: unknown, output: string) => {
      resolve({ error: error ?? undefined, output, action });
    });
  });
}

export async function main(argv: string[], deps?: CliDeps): Promise<number> {
  // Hidden: the network bridge inside a sandbox (core/sandbox/bridge.ts). Before yargs: its argv
  // ends with another program's own, and it starts on every sandboxed attempt.
  if (argv[0] === '__bridge') {
    const { runBridge } = await import('../sandbox/bridge.ts');
    return runBridge(argv.slice(1)).catch((error: unknown) => renderError(error, process.stderr, { json: false, debug: false }));
  }
  // Hidden: the inside half of `doctor --sandbox` (core/sandbox/probe.ts).
  if (argv[0] === '__probe') {
    const { runProbe } = await import('../sandbox/probe.ts');
    return runProbe(argv.slice(1)).catch((error: unknown) => renderError(error, process.stderr, { json: false, debug: false }));
  }
  const io = deps ?? (await defaultDeps());
  const wantsJson = argv.includes('--json');
  const wantsDebug = argv.includes('--debug');
  let outcome: ParseOutcome;
  try {
    outcome = await parse(argv, io.stdout.columns);
  } catch (error) {
    return renderError(error, io.stderr, { json: wantsJson, debug: wantsDebug });
  }
  if (outcome.error) {
    const failure = describeParseFailure(outcome.error.message, outcome.output, argv, commands);
    if (failure.help && !wantsJson) io.stderr.write(`${failure.help}\n\n`);
    return renderError(failure.error, io.stderr, { json: wantsJson, debug: wantsDebug });
  }
  if (!outcome.action) {
    if (outcome.output) io.stdout.write(`${outcome.output}\n`);
    return 0;
  }
  const options = globalOptions(outcome.action.args);
  try {
    const ctx = await createCliContext(io, options);
    return await outcome.action.def.run!(outcome.action.args, ctx);
  } catch (error) {
    return renderError(error, io.stderr, options);
  }
}
