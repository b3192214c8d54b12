/**
 * systemd's socket relay for the network holder (_network-holder.ts), where the system has it:
 * `systemd-socket-activate` listens on a port inside the holder's network and hands the socket
 * to `systemd-socket-proxyd`, which relays each connection to one of the egress proxy's unix
 * sockets, byte for byte, as the bridge does. Both are small C programs that start in a
 * millisecond or two; the bridge is a second start of this binary (a Node start: ~25 ms of CPU
 * beside a run that is preparing, on a machine of two cores a large part of the sandbox's
 * overhead). Where either is missing, or SUPERVISOR_NO_SYSTEMD_RELAY=1, the holder runs the
 * bridge. The words go to the shell as arguments, never into its script.
 */
import { which } from '../../core/plugin-api/index.ts';

/** Where systemd puts them: system folders only, never the caller's PATH. */
const ACTIVATE_DIRS = '/usr/bin:/bin';
const PROXYD_DIRS = '/usr/lib/systemd:/lib/systemd';

/** One relay per listener in the background, then held until stdin ends (as the bridge's --hold). */
const SCRIPT = 'a=$1; p=$2; shift 2; for l in "$@"; do "$a" -l "127.0.0.1:${l%%=*}" "$p" "${l#*=}" & done; exec cat >/dev/null';

/** What the holder runs instead of the bridge, and how it says each port listens (on stderr). */
export interface Relay {
  words: string[];
  /** True once every port has said it listens; false when a relay said anything else first (it failed). */
  listening(stderr: string): boolean | undefined;
}

/** The relay for these listeners (port → proxy socket), or undefined where systemd's programs are not here. */
export function systemdRelay(listeners: { port: number; socket: string }[], env: Readonly<Record<string, string | undefined>>): Relay | undefined {
  if (env.SUPERVISOR_NO_SYSTEMD_RELAY === '1') return undefined;
  const activate = which('systemd-socket-activate', { PATH: ACTIVATE_DIRS });
  const proxyd = which('systemd-socket-proxyd', { PATH: PROXYD_DIRS });
  if (!activate || !proxyd) return undefined;
  const ports = listeners.map((l) => l.port);
  return {
    words: ['/bin/sh', '-c', SCRIPT, 'sh', activate, proxyd, ...listeners.map((l) => `${l.port}=${l.socket}`)],
    listening(stderr) {
      const lines = stderr.split('\n').slice(0, -1); // whole lines only
      const said = lines.map((line) => /^Listening on 127\.0\.0\.1:(\d+) as \d+\.$/.exec(line)?.[1]);
      if (said.some((port) => port === undefined)) return false;
      return ports.every((port) => said.includes(String(port))) || undefined;
    },
  };
}
