/** A command line of the user's (a gate, a set-up command) as the platform's shell runs it. */
import type { RunProcessOptions, RunProcessResult } from './run-process.ts';

export function shellCommand(command: string): { bin: string; args: string[] } {
  // cmd.exe: /d, no AutoRun script of the user's runs first; /s, only an outer pair of quotes is stripped.
  return process.platform === 'win32' ? { bin: 'cmd.exe', args: ['/d', '/s', '/c', command] } : { bin: '/bin/sh', args: ['-c', command] };
}

export type ShellRunOptions = Pick<RunProcessOptions, 'cwd' | 'env' | 'timeoutMs'> & Partial<Pick<RunProcessOptions, 'graceMs' | 'maxOutputBytes' | 'signal' | 'cgroupPrefix'>>;

/** One command line through `spawn` (the sandboxed executor's, for anything a repository or CLI wrote). */
export function runShell(spawn: (options: RunProcessOptions) => Promise<RunProcessResult>, command: string, options: ShellRunOptions): Promise<RunProcessResult> {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ShellRunOptions;
  return spawn({ ...shellCommand(command), ...given });
}

/** stdout then stderr, on a new line when stdout did not end one. */
export function combinedOutput(proc: Pick<RunProcessResult, 'stdout' | 'stderr'>): string {
  return [proc.stdout, proc.stderr].filter(Boolean).join(proc.stdout.endsWith('\n') || !proc.stdout ? '' : '\n');
}
