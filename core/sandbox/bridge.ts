/**
 * The network bridge inside a sandbox without a network of its own (`supervisor __bridge`):
 * listens on 127.0.0.1 ports that each lead to a unix socket bound in from outside (the egress
 * proxy, a forwarded local model server), then runs the CLI and exits with its code. The
 * binary is its own bridge, so a sandbox needs no extra tool.
 *
 *   supervisor __bridge --listen 127.0.0.1:3128=/x/proxy.sock [--listen ...] -- <cli> <args...>
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

export function parseBridgeArgs(argv: string[]): { listeners: Listener[]; command: string[] } {
  const listeners: Listener[] = [];
  let i = 0;
  for (; i < argv.length && argv[i] !== '--'; i += 2) {
    const match = argv[i] === '--listen' ? /^([^:]+):(\d+)=(.+)$/.exec(argv[i + 1] ?? '') : null;
    if (!match) throw errors.usage(`__bridge: expected --listen host:port=socket or --, got ${JSON.stringify(argv[i])}`);
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

/** Starts the listeners, runs the command with inherited stdio, and returns its exit code. */
export async function runBridge(argv: string[]): Promise<number> {
  const { listeners, command } = parseBridgeArgs(argv);
  const servers = await Promise.all(listeners.map(listen));
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

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 1;
}
