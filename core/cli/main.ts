/** The CLI entry: parses argv with yargs, runs one command, renders errors, returns the exit code. */
import yargs, { type Argv } from 'yargs';
import type { Args, CommandDef } from '../command/command.ts';
import { commands } from './commands/index.ts';
import { createCliContext, type GlobalOptions } from '../command/context.ts';
import { defaultDeps, type CliDeps } from '../command/deps.ts';
import { describeParseFailure } from './parse-failure.ts';
import { renderError } from '../command/render-error.ts';
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
  const { key, alias } = (parser as unknown as { getOptions(): { key: Record<string, boolean>; alias: Record<string, string[]> } }).getOptions();
  // An option and its alias (-f for --follow) are one entry: grouped twice, help showed it twice.
  const aliasOf = new Set<string>();
  const own = Object.keys(key).filter((name) => {
    if (GLOBAL_OPTIONS.includes(name) || /[A-Z]/.test(name) || name === 'h' || name === '$0' || aliasOf.has(name)) return false;
    for (const other of alias[name] ?? []) aliasOf.add(other);
    return true;
  });
  const positionals = (parser as unknown as { getGroups(): Record<string, string[]> }).getGroups()['Positionals:'] ?? [];
  const options = own.filter((name) => !positionals.includes(name));
  return (options.length ? parser.group(options, 'Options:') : parser).group(GLOBAL_OPTIONS, 'Global options:');
}

/** Words of `text` in lines of at most `width` characters (a longer word stays whole). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const EXAMPLE_HEADING = 'Example:';

/**
 * A leaf command's help opens with its command line, what it does and one example, so the example
 * is read before the options (yargs prints `.example()` after the global options). The example is
 * wrapped here and indented by indentExample: yargs' own wrapping trims leading spaces.
 */
export function usageWithExample(commandLine: string, def: CommandDef, width: number): string {
  const example = def.example!;
  const line = example.command.replace(/\$0/g, 'supervisor');
  const oneLine = `${line}    ${example.describe}`;
  const block = oneLine.length <= width - 2 ? [oneLine] : [...wrapWords(line, width - 2), ...wrapWords(example.describe, width - 6)];
  return `${commandLine}\n\n${def.describe}\n\n${EXAMPLE_HEADING}\n${block.join('\n')}`;
}

/** Indents the example block of a help text: its first line by 2, the lines after it by 6. */
export function indentExample(help: string): string {
  return help.replace(new RegExp(`^${EXAMPLE_HEADING}\\n([^\\n]+(?:\\n[^\\n]+)*)`, 'm'), (_all, block: string) =>
    `${EXAMPLE_HEADING}\n${block.split('\n').map((text, index) => `${index === 0 ? '  ' : '      '}${text}`).join('\n')}`,
  );
}

function addCommand(parser: Argv, def: CommandDef, select: (action: Action) => void, width: number, parents: string[] = []): Argv {
  const name = def.command.split(' ')[0]!;
  return parser.command(
    def.command,
    def.describe,
    (y: Argv) => {
      let built = oneValuePerFlag(def.builder ? def.builder(y) : y);
      if (!def.subcommands?.length) built = ownOptionsFirst(built);
      if (!def.subcommands?.length && def.example) built = built.usage(usageWithExample(['$0', ...parents, def.command].join(' '), def, width));
      for (const sub of def.subcommands ?? []) built = addCommand(built, sub, select, width, [...parents, name]);
      if (def.subcommands?.length) built = built.demandCommand(1, `Choose a subcommand of "${def.command}".`);
      return built;
    },
    (args) => {
      if (def.run) select({ def, args: args as Args });
    },
  );
}

/**
 * yargs renders the chosen command's whole help before running it, in case the handler fails
 * later (tens of milliseconds of text layout on every command). Ours only records the command,
 * and help is printed from the parse callback's output, so that help is never read.
 */
function withoutHelpCache(parser: Argv): Argv {
  const internal = parser as unknown as { getInternalMethods?(): { getUsageInstance(): { cacheHelpMessage?: () => void } } };
  const usage = internal.getInternalMethods?.().getUsageInstance();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
  return parser;
}

function buildParser(select: (action: Action) => void, columns: number | undefined): Argv {
  const width = Math.min(110, columns ?? 100);
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
    .wrap(width)
    .epilogue('Exit codes: 0 pass, 1 gaps, 2 usage/config error, 3 no valid output, 4 CLI failed, 5 workflow awaiting approval, 130 interrupted (129 SIGHUP, 143 SIGTERM).\nDocs: README.md. Plugins: supervisor plugins --help.');
  parser = oneValuePerFlag(parser);
  for (const def of commands) parser = addCommand(parser, def, select, width);
  return withoutHelpCache(parser);
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
      resolve({ error: error ?? undefined, output: indentExample(output), action });
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
