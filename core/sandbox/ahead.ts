/**
 * What a sandbox starts ahead for a run's first CLI wrap (the plugin's optional `ahead` hook,
 * bwrap's network side): started while the run is prepared, handed to that one wrap, released
 * when the run ends. The connections its egress proxy refuses are told to the attempt that took
 * it (its run-log events and notices), as those of a proxy the wrap started itself would be.
 */
import { callHook } from '../plugins/call-hook.ts';
import type { SandboxAhead, SandboxPolicy } from '../plugin-api/contracts.ts';
import type { HostPort } from './host-port.ts';
import { sandboxContext, type PreparedSandbox, type SandboxAheadSource } from './runner.ts';

export interface RunAhead extends SandboxAheadSource {
  /** Ends what was started unless a wrap took it (idempotent); awaited before the run's result. */
  release(): Promise<void>;
}

/** Nothing ahead: no sandbox that starts anything, or a run that must not (a dry run). */
export const NO_AHEAD: RunAhead = { take: async () => undefined, release: async () => {} };

interface AheadInput {
  env: Record<string, string | undefined>;
  self: { bin: string; args: string[] };
  notice(message: string): void;
}

/** Calls the sandbox's `ahead` with the CLI's policy; a failure there only means nothing was started. */
export function startAhead(sandbox: PreparedSandbox, policy: SandboxPolicy, input: AheadInput): RunAhead {
  const { plugin } = sandbox;
  const ahead = plugin.ahead;
  if (!ahead) return NO_AHEAD;
  let refusals: ((target: HostPort) => void) | undefined;
  const ctx = sandboxContext({ ...input, onRefused: (target) => refusals?.(target) });
  const started: Promise<SandboxAhead | undefined> = callHook(plugin, 'ahead', () => ahead.call(plugin, policy, ctx)).catch((error: unknown) => {
    input.notice(`sandbox ${plugin.name} could not start ahead (its wrap does it all): ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  let taken = false;
  return {
    take: (onRefused) => {
      if (taken) return Promise.resolve(undefined);
      taken = true;
      refusals = onRefused;
      return started;
    },
    release: async () => {
      const part = await started;
      if (!part) return;
      await callHook(plugin, 'release', () => part.release()).catch((error: unknown) => {
        input.notice(`sandbox ${plugin.name}: what it started ahead could not be ended: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
  };
}
