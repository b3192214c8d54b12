/**
 * `allow` mode inside a sandbox with no network of its own: the command runs behind the bridge
 * (`supervisor __bridge`, ctx.self), which listens on 127.0.0.1 for the egress proxy and for
 * each forwarded loopback port, and the CLI is pointed at the proxy. bwrap may instead have a
 * bridge started ahead hold the network namespace the CLI then enters (_network-holder.ts).
 */
import type { EgressProxy, SandboxContext } from '../../core/plugin-api/index.ts';

const PROXY_PORT = 3128;

export interface Bridged {
  /** The command to run inside instead: the bridge, then the CLI. */
  command: string[];
  /** Proxy variables for the CLI. No NO_PROXY: loopback goes through the proxy too, so a refused local port is seen and logged. */
  env: Record<string, string>;
}

/**
 * The bridge's words up to its command (`--`) or `--hold`: ports on 127.0.0.1 and the proxy's
 * sockets they lead to (`listeners`, for a relay that does the bridge's work); and the CLI's proxy variables.
 */
export function bridgeStart(proxy: EgressProxy, ctx: SandboxContext): { words: string[]; listeners: { port: number; socket: string }[]; env: Record<string, string> } {
  let port = PROXY_PORT;
  while (proxy.forwards.some((f) => f.port === port)) port++;
  const listeners = [{ port, socket: proxy.proxySocket }, ...proxy.forwards];
  const url = `http://127.0.0.1:${port}`;
  return {
    words: [ctx.self.bin, ...ctx.self.args, '__bridge', ...listeners.flatMap((l) => ['--listen', `127.0.0.1:${l.port}=${l.socket}`])],
    listeners,
    // Not NODE_USE_ENV_PROXY: it costs every Node process ~45 ms at start, and the real CLIs use
    // the variables without it (claude, codex, gemini and cline were checked).
    env: { HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url, NO_PROXY: '', no_proxy: '' },
  };
}

export function behindBridge(proxy: EgressProxy, ctx: SandboxContext, command: string[]): Bridged {
  const { words, env } = bridgeStart(proxy, ctx);
  return { command: [...words, '--', ...command], env };
}
