/**
 * What every use case takes from its entry point: where it works, who it works for, and the
 * plugin registry and trust decision loaded once. The command line and the MCP server each
 * build one (fromCliContext); a later entry point (a CI job) builds its own.
 */
import type { CliContext } from '../cli/context.ts';
import type { Registry } from '../registry.ts';
import type { TrustDecision } from '../trust/decide.ts';

export interface AppDeps {
  repoRoot: string;
  /** Where relative paths the caller gives are read from (the working folder; the repository for MCP). */
  cwd: string;
  homeDir: string;
  env: Record<string, string | undefined>;
  registry(): Promise<Registry>;
  /** Whether the repository may run its own code (core/trust), decided by the trust store and --trust. */
  trust(): Promise<TrustDecision>;
  /**
   * Whether a file the caller names outside the repository is the user's own: true on the
   * command line (the user typed it); for MCP only when the server runs with --trust (an agent
   * chose it, SECURITY.md: an MCP client's paths outside the repository are untrusted).
   */
  outsideFilesAreUsers: boolean;
  /** A line on stderr (notices, warnings). */
  warn(text: string): void;
}

export function fromCliContext(ctx: CliContext, how: { cwd?: string; outsideFilesAreUsers?: boolean } = {}): AppDeps {
  return {
    repoRoot: ctx.repoRoot,
    cwd: how.cwd ?? ctx.deps.cwd,
    homeDir: ctx.deps.homeDir,
    env: ctx.deps.env,
    registry: () => ctx.registry(),
    trust: () => ctx.trust(),
    outsideFilesAreUsers: how.outsideFilesAreUsers ?? true,
    warn: (text) => ctx.warn(text),
  };
}
