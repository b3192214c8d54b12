/**
 * `supervisor mcp` over stdio. stdout carries only the protocol (every notice goes to stderr).
 * The server lives as long as its client: when stdin ends (the client went away) or a stop
 * signal comes, every run and workflow it started is interrupted as Ctrl-C would (process
 * trees ended, workflows `interrupted`, resumable), then the server closes and the command
 * returns.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from './sdk.ts';
import type { CliContext } from '../command/context.ts';
import { EXIT, type ExitCode } from '../errors.ts';
import { stopExitCode } from '../process/stop-signals.ts';
import { createSupervisorServer, type ServerOptions } from './server.ts';

export async function serveStdio(ctx: CliContext, options: ServerOptions): Promise<ExitCode> {
  const { server, activity, close } = await createSupervisorServer(ctx, options);
  const stdin = ctx.deps.stdin as Readable;
  const transport = new StdioServerTransport(stdin, ctx.deps.stdout as unknown as Writable);
  let stopListening = () => {};
  const done = new Promise<ExitCode>((resolve) => {
    let stopping = false;
    const stop = async (why: string, reason: string, code: ExitCode) => {
      if (stopping) return;
      stopping = true;
      if (activity.running) ctx.warn(`mcp: ${why}: interrupting ${activity.running} run${activity.running === 1 ? '' : 's'} and workflows started here (a workflow stays resumable)`);
      // SIGHUP for a client that went away, as for a closed terminal: interrupted, resumable.
      await activity.stopAll(reason);
      await server.close().catch(() => {});
      close();
      stopListening();
      resolve(code);
    };
    stdin.once('end', () => void stop('the client disconnected', 'SIGHUP', EXIT.ok));
    stdin.once('error', () => void stop('stdin failed', 'SIGHUP', EXIT.ok));
    server.server.onclose = () => void stop('the connection closed', 'SIGHUP', EXIT.ok);
    stopListening = ctx.deps.onInterrupt((signal) => void stop(`${signal}`, signal, stopExitCode(signal)));
  });
  await server.connect(transport);
  ctx.warn(`mcp: serving ${ctx.repoRoot} on stdio`);
  return done;
}
