/**
 * What a shell of ours is told for one command, the launcher's (launcher.ts) or a standby's
 * (standby.ts): every word as the shell reads it back (shellWord); null when the command cannot
 * be said to the shell exactly.
 */

import { shellWord } from '../text/shell-word.ts';

/** A command whose output is only captured (runProcess's options are these and more). */
export interface LaunchOptions {
  bin: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** Written to stdin, which is then closed; undefined leaves stdin closed from the start. */
  stdin?: string;
  /** 0 or undefined: no timeout. */
  timeoutMs?: number;
  /** Time between TERM and KILL. */
  graceMs?: number;
  /** Bytes kept of each of stdout and stderr. */
  maxOutputBytes?: number;
  /** Aborting ends the process tree and marks the result interrupted. */
  signal?: AbortSignal;
}

/** Well under Linux's 128 KiB for one argument and 2 MiB for them all. */
const MAX_ARG_BYTES = 64 * 1024;
const MAX_REQUEST_BYTES = 512 * 1024;

/** `NAME='value' ... 'bin' 'arg' ...` for dash, `'env' -i 'NAME=value' ... 'bin' 'arg' ...` elsewhere; null when it cannot be said exactly. */
export function commandWords(bin: string, options: Pick<LaunchOptions, 'args' | 'env'>, env: string | null): string | null {
  const variables = Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const words = [bin, ...options.args, ...variables.flat()];
  if (words.some((word) => word.includes('\0') || Buffer.byteLength(word) > MAX_ARG_BYTES)) return null;
  // SECURITY I2: the shell runs only the words given, each read back as it was (shellWord).
  const command = [bin, ...options.args].map(shellWord).join(' ');
  if (env === null) {
    if (!variables.every(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))) return null;
    return `${variables.map(([name, value]) => `${name}=${shellWord(value)}`).join(' ')} ${command}`;
  }
  // env reads a word with "=" as one more variable, and one starting with "-" as an option: not the program.
  if (variables.some(([name]) => name === '' || name.includes('=') || name.startsWith('-')) || bin.includes('=') || bin.startsWith('-')) return null;
  return `${shellWord(env)} -i ${variables.map(([name, value]) => shellWord(`${name}=${value}`)).join(' ')} ${command}`;
}

/**
 * The shell line for one job: a subshell (O <its pid>) that enters the folder (C when it
 * cannot), starts the command with its files in the background (S <pid>), waits for it and says
 * its exit code (E <code>).
 */
export function request(id: string, bin: string, options: LaunchOptions, files: { stdin: string; stdout: string; stderr: string }, env: string | null): string | null {
  const command = commandWords(bin, options, env);
  if (command === null || options.cwd.includes('\0')) return null;
  const redirects = `<${shellWord(files.stdin)} >${shellWord(files.stdout)} 2>${shellWord(files.stderr)}`;
  const enter = enterFolder(options.cwd, `2>/dev/null || { echo "C ${id}"; exit; }`);
  const line = `( ${enter}; ${command} ${redirects} & echo "S ${id} $!"; wait $!; echo "E ${id} $?" ) & echo "O ${id} $!"\n`;
  return Buffer.byteLength(line) > MAX_REQUEST_BYTES ? null : line;
}

/**
 * What a standby evals to become the command: fd 3 (where it read this) closed, stdin from
 * /dev/null unless a text is given, the folder, then exec through `env -i`.
 */
export function standbyLine(options: Pick<LaunchOptions, 'bin' | 'args' | 'cwd' | 'env' | 'stdin'>, env: string): string | null {
  const command = commandWords(options.bin, options, env);
  if (command === null || options.cwd.includes('\0')) return null;
  const input = options.stdin === undefined ? ' </dev/null' : '';
  return `exec 3<&-${input}; ${enterFolder(options.cwd, '|| exit 127')}; exec ${command}\n`;
}

/** `cd` into the folder as it really is (`otherwise` when it cannot), leaving the shell's PWD out of the command's environment. */
function enterFolder(cwd: string, otherwise: string): string {
  return `cd -P -- ${shellWord(cwd)} ${otherwise}; unset PWD OLDPWD`;
}
