/**
 * The SDK's own MCP client over stdio, against the built binary copied alone (binary.ts): a
 * PATH without node, an isolated HOME. Every protocol error the client transport meets (a line
 * on stdout that is not a JSON-RPC message) is collected, so a test can assert there was none.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ChildProcess } from 'node:child_process';
import type { Sandbox } from './binary.ts';


export interface Connection {
  client: Client;
  transport: StdioClientTransport;
  /** Protocol errors the client met (non-JSON on stdout, ...). */
  protocolErrors: Error[];
  stderr(): string;
  /** The client goes away without a word: the server's stdin closes, as when the agent dies. Resolves when the server has exited, with its exit code. */
  disconnect(): Promise<number | null>;
}

export async function connect(box: Sandbox, repo: string, options: { args?: string[]; env?: Record<string, string> } = {}): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: box.binary,
    args: ['mcp', ...(options.args ?? [])],
    cwd: repo,
    env: box.env({ SUPERVISOR_KILL_GRACE_MS: '300', SUPERVISOR_RETRY_BACKOFF_MS: '10', ...options.env }),
    stderr: 'pipe',
  });
  let stderr = '';
  (transport.stderr as NodeJS.ReadableStream | null)?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const client = new Client({ name: 'supervisor-tests', version: '1.0.0' });
  const protocolErrors: Error[] = [];
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
  return {
    client,
    transport,
    protocolErrors,
    stderr: () => stderr,
    async disconnect() {
      // The transport's own close() would SIGTERM the server after 2 s; a client that dies only closes the pipe.
      const child = (transport as unknown as { _process?: ChildProcess })._process!;
      const exited = new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
      child.stdin!.end();
      return exited;
    },
  };
}

/** The fake CLIs behind node-free wrappers: the one helper of every test (test/helpers/fake-clis.ts). */
export { fakeClis } from '../helpers/fake-clis.ts';

/** Polls `check` until it gives a value (the test's own timeout bounds the wait). */
export async function until<T>(check: () => Promise<T | undefined> | T | undefined, pauseMs = 100): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
