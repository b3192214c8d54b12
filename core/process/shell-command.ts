/** A command line of the user's (a gate, a set-up command) as the platform's shell runs it. */
export function shellCommand(command: string): { bin: string; args: string[] } {
  // cmd.exe: /d, no AutoRun script of the user's runs first; /s, only an outer pair of quotes is stripped.
  return process.platform === 'win32' ? { bin: 'cmd.exe', args: ['/d', '/s', '/c', command] } : { bin: '/bin/sh', args: ['-c', command] };
}
