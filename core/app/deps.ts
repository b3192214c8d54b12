/**
 * What every use case takes from its entry point: where it works, who it works for, and the
 * plugin registry and trust decision loaded once. The command line and the MCP server each
 * build one (core/command/app-deps.ts); a later entry point (a CI job) builds its own.
 */
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
