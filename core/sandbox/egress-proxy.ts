/**
 * The network allowlist for sandboxes that cut the network off (bwrap in `allow` mode): an
 * HTTP CONNECT and plain-HTTP proxy outside the sandbox that lets through only allowed
 * host:port pairs, and one forwarder per allowed loopback port (a local model server). Both
 * listen on unix sockets in a private folder that the sandbox binds in; inside, the bridge
 * (`supervisor __bridge`, bridge.ts) turns them back into 127.0.0.1 ports. Every refusal is
 * reported (the run log's `sandbox_refused` event and a notice).
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EgressProxy } from '../plugin-api/contracts.ts';
import { formatHostPort, isLoopback, parseHostPort, type HostPort } from './host-port.ts';

export interface EgressProxyOptions {
  /** Allowed "host:port" entries. */
  allow: string[];
  /** Called for every refused connection. */
  onRefused(target: HostPort, how: 'connect' | 'http'): void;
}

/** The same port on any loopback name counts as one entry (localhost, 127.0.0.1, ::1). */
function key({ host, port }: HostPort): string {
  return isLoopback(host) ? `loopback:${port}` : formatHostPort({ host, port });
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const entries = options.allow.map(parseHostPort).filter((e): e is HostPort => e !== undefined);
  const allowed = new Set(entries.map(key));
  const isAllowed = (target: HostPort) => allowed.has(key(target));
  // Unix socket paths are short (108 bytes): a private folder in the system temp. Made and
  // listened in without a turn of the event loop: a sandbox starting ahead on a busy main
  // thread has its proxy's sockets at once (the listens settle on process.nextTick).
  const dir = mkdtempSync(join(tmpdir(), 'sv-sandbox-net-'));
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };

  const proxy = createHttpServer((req, res) => forwardHttp(req, res, isAllowed, options.onRefused, track));
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(req, client, head, isAllowed, options.onRefused, track));
  proxy.on('connection', track);
  const proxySocket = join(dir, 'proxy.sock');
  await listen(proxy, proxySocket);
  servers.push(proxy);

  const ports = [...new Set(entries.filter((e) => isLoopback(e.host)).map((e) => e.port))];
  const forwards: EgressProxy['forwards'] = [];
  for (const port of ports) {
    const server = createServer((inside) => {
      track(inside);
      const outside = connect(port, '127.0.0.1');
      track(outside);
      pipeBoth(inside, outside);
    });
    const socket = join(dir, `fwd-${port}.sock`);
    await listen(server, socket);
    servers.push(server);
    forwards.push({ port, socket });
  }

  return {
    proxySocket,
    forwards,
    dir,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function pipeBoth(a: Socket, b: Socket): void {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.pipe(b);
  b.pipe(a);
}

function tunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  isAllowed: (t: HostPort) => boolean,
  onRefused: EgressProxyOptions['onRefused'],
  track: (s: Socket) => void,
): void {
  client.on('error', () => client.destroy());
  const target = parseHostPort(req.url ?? '');
  if (!target || !isAllowed(target)) {
    if (target) onRefused(target, 'connect');
    client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nsupervisor sandbox: ${req.url} is not an allowed host:port\n`);
    return;
  }
  const upstream = connect(target.port, target.host, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    pipeBoth(client, upstream);
  });
  track(upstream);
  upstream.on('error', () => {
    if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
  });
}

function forwardHttp(req: IncomingMessage, res: ServerResponse, isAllowed: (t: HostPort) => boolean, onRefused: EgressProxyOptions['onRefused'], track: (s: Socket) => void): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('supervisor sandbox: a proxy request needs an absolute http:// URL\n');
    return;
  }
  const target = { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: url.port ? Number(url.port) : 80 };
  if (url.protocol !== 'http:' || !isAllowed(target)) {
    onRefused(target, 'http');
    res.writeHead(403, { 'content-type': 'text/plain' }).end(`supervisor sandbox: ${formatHostPort(target)} is not an allowed host:port\n`);
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = httpRequest({ host: target.host, port: target.port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  // Tracked like a tunnel's: closing the proxy ends a request still waiting for its server, which
  // would otherwise keep this process alive after its run.
  upstream.on('socket', track);
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end();
  });
  req.pipe(upstream);
}
