/** The use cases' dependencies (core/app/deps.ts) from the context every command line and MCP command builds. */
import type { AppDeps } from '../app/deps.ts';
import type { CliContext } from './context.ts';

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
