/**
 * Turns a yargs parse failure into one usage error a person can act on: a missing command
 * shows that command's help, an unknown command suggests close names (only close ones: "bogus"
 * suggests nothing), and an unknown option is named once, as it was typed.
 */
import { errors, type SupervisorError } from '../errors.ts';
import { suggest } from '../text/suggest.ts';
import type { CommandDef } from '../command/command.ts';

export interface ParseFailure {
  error: SupervisorError;
  /** Help text to show before the error (stderr), when the failure is a missing command. */
  help: string | null;
}

const nameOf = (def: CommandDef) => def.command.split(' ')[0]!;

/** The command words given (e.g. ["runs", "show"]) and the definitions they lead to. */
function commandPath(argv: string[], commands: CommandDef[]): { words: string[]; level: CommandDef[]; leaf: CommandDef | null } {
  const words: string[] = [];
  let level = commands;
  let leaf: CommandDef | null = null;
  for (const token of argv) {
    if (token.startsWith('-')) continue;
    const def = level.find((d) => nameOf(d) === token);
    if (!def) break;
    words.push(token);
    leaf = def;
    level = def.subcommands ?? [];
  }
  return { words, level, leaf };
}

function isFlag(key: string, argv: string[]): boolean {
  const forms = key.length === 1 ? [`-${key}`] : [`--${key}`, `--no-${key}`];
  return argv.some((token) => forms.some((form) => token === form || token.startsWith(`${form}=`)) || (key.length === 1 && /^-[a-zA-Z]+$/.test(token) && token.includes(key)));
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** yargs names each unknown option twice (bogus-flag, bogusFlag): keep the form that was typed. */
function unknownKeys(message: string): string[] {
  const list = /^Unknown arguments?: (.*)$/.exec(message)?.[1];
  if (list === undefined) return [];
  const keys = list.split(', ').filter(Boolean);
  return keys.filter((k) => !(/[A-Z]/.test(k) && keys.includes(kebab(k))));
}

export function describeParseFailure(message: string, output: string, argv: string[], commands: CommandDef[]): ParseFailure {
  const { words, level, leaf } = commandPath(argv, commands);
  const where = ['supervisor', ...words].join(' ');
  const hint = `Run "${where} --help" for usage.`;
  if (/^Choose a (sub)?command/.test(message)) {
    // yargs's output is the help followed by the message; the message is rendered as the error.
    const help = output.endsWith(message) ? output.slice(0, -message.length).trimEnd() : output.trimEnd();
    return { help: help || null, error: errors.usage(words.length ? `"${where}" needs a subcommand` : 'Choose a command', hint) };
  }
  const unknown = unknownKeys(message);
  if (unknown.length) {
    const flags = unknown.filter((k) => isFlag(k, argv));
    const positionals = unknown.filter((k) => !flags.includes(k));
    if (positionals.length && (!leaf || leaf.subcommands?.length)) {
      const names = level.map(nameOf).filter((n) => !n.startsWith('__')); // hidden commands
      const given = positionals[0]!;
      return { help: null, error: errors.usage(`Unknown command "${given}"${suggest(given, names)}`, `Commands of "${where}": ${names.join(', ')}. ${hint}`) };
    }
    const named = [...flags.map((k) => (k.length === 1 ? `-${k}` : `--${k}`)), ...positionals.map((w) => `"${w}"`)];
    const what = flags.length ? `Unknown option${named.length > 1 ? 's' : ''}` : `Unexpected argument${named.length > 1 ? 's' : ''}`;
    const known = optionsInHelp(output);
    const close = flags.length === 1 && flags[0]!.length > 1 && known.length ? suggest(flags[0]!, known).replace(/"([\w-]+)"/g, '--$1') : '';
    return { help: null, error: errors.usage(`${what}: ${named.join(', ')}${close}`, hint) };
  }
  const missing = /^Not enough non-option arguments: got (\d+), need at least (\d+)/.exec(message);
  if (missing && leaf) return { help: null, error: errors.usage(missingArgument(where, leaf, Number(missing[1]), output), hint) };
  const choice = /^Invalid values:\s*Argument: ([\w-]+), Given: "([^"]*)", Choices: (.*)$/s.exec(message.trim());
  if (choice) {
    const choices = [...choice[3]!.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    return { help: null, error: errors.usage(`--${choice[1]} ${choice[2]}: choose one of ${choices.join(', ')}${suggest(choice[2]!, choices)}`, hint) };
  }
  return { help: null, error: errors.usage(message, hint) };
}

/** The positional that is missing, named as the command's help describes it: "workflow run needs the plan file". */
function missingArgument(where: string, leaf: CommandDef, got: number, output: string): string {
  const names = [...leaf.command.matchAll(/<([\w-]+)(?:\.\.)?>/g)].map((m) => m[1]!);
  const name = names[got] ?? names[0] ?? 'an argument';
  const described = new RegExp(`^\\s+${name}\\s{2,}(\\S.*?)\\s{2,}\\[`, 'm').exec(output)?.[1]?.trim();
  const what = described ? described.charAt(0).toLowerCase() + described.slice(1) : `<${name}>`;
  return `${where.replace(/^supervisor /, '')} needs ${what} (${where} ${leaf.command.split(' ').slice(1).join(' ')})`;
}

/** The long options a command's help lists (its own and the global ones). */
export function optionsInHelp(output: string): string[] {
  return [...output.matchAll(/^\s+(?:-\w, )?--([\w-]+)/gm)].map((m) => m[1]!);
}
