/**
 * The network bridge inside a sandbox without a network of its own (`supervisor __bridge`):
 * listens on 127.0.0.1 ports that each lead to a unix socket bound in from outside (the egress
 * proxy, a forwarded local model server), then runs the CLI and exits with its code. The
 * binary is its own bridge, so a sandbox needs no extra tool. With `--hold` instead of a command
 * it runs nothing: it says `ready` on stdout once it listens and stays until its stdin ends, the
 * network namespace it listens in kept for a CLI that enters it later (bwrap's network started
 * ahead, plugins/sandboxes/_network-holder.ts).
 *
 *   supervisor __bridge --listen 127.0.0.1:3128=/x/proxy.sock [--listen ...] -- <cli> <args...>
 *   supervisor __bridge --listen 127.0.0.1:3128=/x/proxy.sock [--listen ...] --hold
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';
import { errors } from '../errors.ts';

export const BRIDGE_COMMAND = '__bridge';

interface Listener {
  host: string;
  port: number;
  socket: string;
}

export function bridgeArgs(listeners: Listener[], command: string[]): string[] {
  return [BRIDGE_COMMAND, ...listeners.flatMap((l) => ['--listen', `${l.host}:${l.port}=${l.socket}`]), '--', ...command];
}

const HOLD_FLAG = '--hold';
/** What a holding bridge prints once it listens. */
const READY_LINE = 'ready\n';

/** The listeners and the command to run; an empty command with `--hold`. */
export function parseBridgeArgs(argv: string[]): { listeners: Listener[]; command: string[] } {
  const listeners: Listener[] = [];
  let i = 0;
  for (; i < argv.length && argv[i] !== '--'; i += 2) {
    if (argv[i] === HOLD_FLAG && i === argv.length - 1) return { listeners, command: [] };
    const match = argv[i] === '--listen' ? /^([^:]+):(\d+)=(.+)$/.exec(argv[i + 1] ?? '') : null;
    if (!match) throw errors.usage(`__bridge: expected --listen host:port=socket, --hold or --, got ${JSON.stringify(argv[i])}`);
    listeners.push({ host: match[1]!, port: Number(match[2]), socket: match[3]! });
  }
  const command = argv.slice(i + 1);
  if (!command.length) throw errors.usage('__bridge: no command after --');
  return { listeners, command };
}

function listen(listener: Listener): Promise<Server> {
  const server = createServer((client) => {
    const upstream = connect(listener.socket);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listener.port, listener.host, () => resolve(server));
  });
}

/** Starts the listeners, runs the command with inherited stdio, and returns its exit code (held: exits when let go). */
export async function runBridge(argv: string[]): Promise<number> {
  const { listeners, command } = parseBridgeArgs(argv);
  const servers = await Promise.all(listeners.map(listen));
  if (!command.length) return hold();
  for (const server of servers) server.unref();
  const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, forward(signal));
  return new Promise((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      process.stderr.write(`supervisor bridge: cannot start ${command[0]}: ${error.message}\n`);
      resolve(error.code === 'ENOENT' ? 127 : 126);
    });
    child.on('exit', (code, signal) => {
      for (const server of servers) server.close();
      resolve(code ?? 128 + (signal ? signalNumber(signal) : 0));
    });
  });
}

/**
 * Says it listens, then keeps listening until its stdin ends (the one that started it let go, or
 * died) and exits: connections still open then end with it.
 */
function hold(): Promise<number> {
  process.stdout.write(READY_LINE);
  const exit = () => process.exit(0);
  process.stdin.on('end', exit).on('close', exit).on('error', exit).resume();
  return new Promise(() => {});
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 1;
}
