/**
 * The egress proxy with real sockets: CONNECT and plain HTTP reach allowed host:port pairs
 * only, every refusal is reported, allowed loopback ports are forwarded through their own
 * sockets, and closing removes the socket folder. The bridge turns the sockets back into
 * 127.0.0.1 ports for a command it runs, and exits with that command's code.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bridgeArgs, parseBridgeArgs } from '../../../core/sandbox/bridge.ts';
import { startEgressProxy } from '../../../core/sandbox/egress-proxy.ts';
import { PROJECT_ROOT } from '../../e2e/_run.ts';

function get(options: { socketPath?: string; host?: string; port?: number; path: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ ...options, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT through the proxy socket; resolves with the status line and, when tunnelled, what the target echoed. */
function tunnel(socketPath: string, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    let data = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      data += chunk;
      if (data.startsWith('HTTP/1.1 200') && data.endsWith('\r\n\r\n')) socket.write('ping');
      if (data.includes('pong') || !data.startsWith('HTTP/1.1 200')) socket.end();
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

/** A free port on 127.0.0.1, for a bridge's listener. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

describe('egress proxy', () => {
  let web: Server;
  let webPort: number;
  let echo: ReturnType<typeof createNetServer>;
  let echoPort: number;
  before(async () => {
    web = createServer((req, res) => res.end(`web ${req.url}`));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webPort = (web.address() as AddressInfo).port;
    echo = createNetServer((s) => s.on('data', () => s.end('pong')));
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    echoPort = (echo.address() as AddressInfo).port;
  });
  after(() => {
    web.close();
    echo.close();
  });

  it('lets allowed pairs through (CONNECT and plain HTTP) and refuses and reports the rest', async () => {
    const refused: string[] = [];
    const proxy = await startEgressProxy({ allow: [`localhost:${echoPort}`, `127.0.0.1:${webPort}`], onRefused: (t, how) => refused.push(`${how} ${t.host}:${t.port}`) });
    try {
      assert.match(await tunnel(proxy.proxySocket, `127.0.0.1:${echoPort}`), /^HTTP\/1\.1 200 Connection Established\r\n\r\npong$/);
      const plain = await get({ socketPath: proxy.proxySocket, path: `http://127.0.0.1:${webPort}/v1/x?y=1` });
      assert.deepEqual(plain, { status: 200, body: 'web /v1/x?y=1' });
      assert.match(await tunnel(proxy.proxySocket, 'example.com:443'), /^HTTP\/1\.1 403 Forbidden/);
      const denied = await get({ socketPath: proxy.proxySocket, path: `http://127.0.0.1:${echoPort + 1}/` });
      assert.equal(denied.status, 403);
      assert.match(denied.body, /is not an allowed host:port/);
      assert.deepEqual(refused, ['connect example.com:443', `http 127.0.0.1:${echoPort + 1}`]);
    } finally {
      await proxy.close();
    }
    assert.ok(!existsSync(proxy.dir), 'the socket folder is removed');
  });

  it('forwards each allowed loopback port through its own socket', async () => {
    const proxy = await startEgressProxy({ allow: [`127.0.0.1:${webPort}`, 'api.example.com:443'], onRefused: () => {} });
    try {
      assert.deepEqual(proxy.forwards, [{ port: webPort, socket: join(proxy.dir, `fwd-${webPort}.sock`) }]);
      assert.deepEqual(await get({ socketPath: proxy.forwards[0]!.socket, path: '/direct' }), { status: 200, body: 'web /direct' });
    } finally {
      await proxy.close();
    }
  });

  it('the bridge (supervisor __bridge) listens on 127.0.0.1 ports leading to the sockets, runs the command, exits with its code', async () => {
    const proxy = await startEgressProxy({ allow: [`127.0.0.1:${webPort}`], onRefused: () => {} });
    const port = await freePort();
    const script = `fetch('http://127.0.0.1:${port}/through-bridge').then(r => r.text()).then(t => { console.log(t); process.exit(7); })`;
    const args = bridgeArgs([{ host: '127.0.0.1', port, socket: proxy.forwards[0]!.socket }], [process.execPath, '-e', script]);
    try {
      const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/supervisor.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      assert.equal(out.trim(), 'web /through-bridge');
      assert.equal(code, 7);
    } finally {
      await proxy.close();
    }
  });

  it('closing ends a plain-HTTP request still waiting for its server (nothing of the proxy keeps the process alive)', async () => {
    const waiting: import('node:net').Socket[] = [];
    const silent = createNetServer((socket) => waiting.push(socket.resume()));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    const proxy = await startEgressProxy({ allow: [`example.test:${port}`, `127.0.0.1:${port}`], onRefused: () => {} });
    try {
      void get({ socketPath: proxy.proxySocket, path: `http://127.0.0.1:${port}/never` }).catch(() => {});
      while (!waiting.length) await new Promise((r) => setTimeout(r, 5));
      const closed = new Promise((r) => waiting[0]!.on('close', () => r('closed')));
      await proxy.close();
      const late = new Promise((r) => setTimeout(() => r('still open after 5 s'), 5000).unref());
      assert.equal(await Promise.race([closed, late]), 'closed');
    } finally {
      for (const socket of waiting) socket.destroy();
      silent.close();
    }
  });

  it('a held bridge (--hold) listens, says ready, runs nothing, and exits when its stdin ends', async () => {
    const proxy = await startEgressProxy({ allow: [`127.0.0.1:${webPort}`], onRefused: () => {} });
    const port = await freePort();
    try {
      const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/supervisor.mjs'), '__bridge', '--listen', `127.0.0.1:${port}=${proxy.forwards[0]!.socket}`, '--hold'], { stdio: ['pipe', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((r) => child.on('close', r));
      const ready = await new Promise<string>((r) => child.stdout.setEncoding('utf8').once('data', r));
      assert.equal(ready, 'ready\n');
      assert.deepEqual(await get({ host: '127.0.0.1', port, path: '/held' }), { status: 200, body: 'web /held' });
      child.stdin.end();
      assert.equal(await exited, 0);
    } finally {
      await proxy.close();
    }
  });

  it('bridge arguments: --listen host:port=socket pairs, then -- and the command', () => {
    const args = bridgeArgs([{ host: '127.0.0.1', port: 3128, socket: '/s/proxy.sock' }], ['claude', '-p', '--', 'x']);
    assert.deepEqual(args, ['__bridge', '--listen', '127.0.0.1:3128=/s/proxy.sock', '--', 'claude', '-p', '--', 'x']);
    assert.deepEqual(parseBridgeArgs(args.slice(1)), { listeners: [{ host: '127.0.0.1', port: 3128, socket: '/s/proxy.sock' }], command: ['claude', '-p', '--', 'x'] });
    assert.throws(() => parseBridgeArgs(['--listen', 'nonsense', '--', 'x']), /expected --listen host:port=socket/);
    assert.deepEqual(parseBridgeArgs(['--listen', '127.0.0.1:3128=/s/proxy.sock', '--hold']), { listeners: [{ host: '127.0.0.1', port: 3128, socket: '/s/proxy.sock' }], command: [] });
    assert.throws(() => parseBridgeArgs(['--hold', '--listen', '127.0.0.1:3128=/s/proxy.sock']), /expected --listen host:port=socket, --hold or --/);
    assert.throws(() => parseBridgeArgs(['--']), /no command after --/);
  });
});
