/**
 * Where the engine meets the sandbox plugin: the one place a spawn spec (the CLI's or a
 * gate's) is handed to the sandbox's `wrap` and the wrapped command spawned, with the
 * tear-down always run afterwards (also on timeout and Ctrl-C). Refused connections are
 * recorded here, so the run log and the run's issues (explain.ts) can say what it stopped.
 */
import { isSupervisorError } from '../errors.ts';
import { worktreeTouched } from '../git/verified-worktree.ts';
import { callHook, isPluginFault } from '../plugins/call-hook.ts';
import type { AdapterAccess, SandboxAhead, SandboxAvailability, SandboxContext, SandboxPlugin, SandboxPolicy, WorktreeGit } from '../plugin-api/contracts.ts';
import type { RunProcessOptions, RunProcessResult } from '../process/run-process.ts';
import { which } from '../process/which.ts';
import type { Registry } from '../registry.ts';
import { startEgressProxy } from './egress-proxy.ts';
import { allowedEnv } from './env-allowlist.ts';
import { sandboxErrors } from './errors.ts';
import { formatHostPort, type HostPort } from './host-port.ts';
import { chooseSandbox, cliPolicy, DEFAULT_SANDBOX, type ChoiceInput, type SandboxChoice } from './policy.ts';

export interface PreparedSandbox {
  choice: SandboxChoice;
  plugin: SandboxPlugin;
  repoRoot: string;
  homeDir: string;
}

/** No sandbox, for registries without the built-ins (tests, embedders): the command as given. */
const PASSTHROUGH: SandboxPlugin = { kind: 'sandbox', name: DEFAULT_SANDBOX, available: () => ({ ok: true }), wrap: (request) => ({ ...request.command }) };

export function prepareSandbox(registry: Registry, input: ChoiceInput, where: { repoRoot: string; homeDir: string }): PreparedSandbox {
  const choice = chooseSandbox(input);
  const plugin = choice.name === DEFAULT_SANDBOX && !registry.has('sandbox', choice.name) ? PASSTHROUGH : registry.get('sandbox', choice.name);
  return { choice, plugin, ...where };
}

interface ContextInput {
  env: Record<string, string | undefined>;
  self: { bin: string; args: string[] };
  notice(message: string): void;
  /** A refused connection (the run log records it). */
  onRefused?(target: HostPort): void;
}

export function sandboxContext(input: ContextInput): SandboxContext {
  return {
    env: Object.freeze({ ...input.env }),
    self: input.self,
    notice: input.notice,
    which: (bin) => which(bin, input.env) ?? null,
    startEgressProxy: (allow) =>
      startEgressProxy({
        allow,
        onRefused: (target) => input.onRefused?.(target),
      }),
  };
}

/** Asks the sandbox whether it can run here; a configuration error (exit 2) when it cannot. */
export async function checkSandbox(sandbox: PreparedSandbox, ctx: SandboxContext): Promise<void> {
  const { plugin, choice } = sandbox;
  const availability: SandboxAvailability = await callHook(plugin, 'available', () => plugin.available(ctx, choice.options));
  if (!availability.ok) throw sandboxErrors.unavailable(sandbox.choice.name, availability.missing, availability.hint);
}

/** Where a run's first CLI wrap gets what the sandbox started ahead (ahead.ts); once, then nothing. */
export interface SandboxAheadSource {
  take(onRefused: (target: HostPort) => void): Promise<SandboxAhead | undefined>;
}

export interface SandboxedRunInput {
  sandbox: PreparedSandbox;
  ctx: SandboxContext;
  purpose: 'cli' | 'gate';
  policy: SandboxPolicy;
  scratchDir: string;
  repoRoot: string;
  homeDir: string;
  id: string;
  /** The worktree's recorded git folders (SandboxRequest.git). */
  git?: WorktreeGit;
  /** What the sandbox started ahead, for the first process of this runner. */
  ahead?: () => Promise<SandboxAhead | undefined>;
  runProcess(options: RunProcessOptions): Promise<RunProcessResult>;
}

/** A runProcess that runs each process through the sandbox; the unsandboxed one for `none`. */
export function sandboxedRunner(input: SandboxedRunInput): (options: RunProcessOptions) => Promise<RunProcessResult> {
  let calls = 0;
  return async (options) => {
    const { plugin, choice } = input.sandbox;
    calls++;
    const ahead = await input.ahead?.();
    const wrapped = await callHook(plugin, 'wrap', () =>
      plugin.wrap(
        {
          purpose: input.purpose,
          // Every sandbox gets the allowlisted environment only: one rule for all of them (none is no sandbox).
          command: { bin: options.bin, args: options.args, env: choice.name === DEFAULT_SANDBOX ? options.env : allowedEnv(options.env, input.policy.env) },
          cwd: options.cwd,
          ...(input.git ? { git: input.git } : {}),
          scratchDir: input.scratchDir,
          repoRoot: input.repoRoot,
          homeDir: input.homeDir,
          policy: input.policy,
          id: `${input.id}-${calls}`,
          ...(ahead ? { ahead } : {}),
        },
        input.ctx,
      ),
    );
    try {
      return await input.runProcess({ ...options, bin: wrapped.bin, args: wrapped.args, env: wrapped.env });
    } finally {
      await tearDown(plugin, wrapped.teardown, input.ctx);
    }
  };
}

/**
 * The plugin's returned teardown, through the hook wrapper like any hook: one that hangs is
 * PLUGIN_TIMEOUT and one that returns a value is PLUGIN_SHAPE (a broken plugin: the run stops);
 * one that throws is a notice (what it left is named, the run's own answer stands).
 */
async function tearDown(plugin: SandboxPlugin, teardown: (() => Promise<void>) | undefined, ctx: SandboxContext): Promise<void> {
  if (!teardown) return;
  try {
    await callHook(plugin, 'teardown', () => teardown());
  } catch (error) {
    if (isPluginFault(error)) throw error;
    const cause = isSupervisorError(error) && error.cause !== undefined ? error.cause : error;
    ctx.notice(`sandbox ${plugin.name}: tear-down failed: ${String(cause instanceof Error ? cause.message : cause)}`);
  }
}

export interface AttemptSandboxInput {
  sandbox: PreparedSandbox;
  /** The adapter's declared needs. */
  access: AdapterAccess | undefined;
  /** Names of the variables the adapter's command sets itself (quiet settings, its own): they pass. */
  commandEnv?: string[];
  env: Record<string, string | undefined>;
  self: { bin: string; args: string[] };
  notice(message: string): void;
  /** Records a run-log event. */
  event(type: 'sandbox_refused', data: Record<string, unknown>): void;
  /** The worktree the CLI works in. */
  cwd: string;
  /** Its git folders as recorded when it was made (absent in place). */
  git?: WorktreeGit;
  scratchDir: string;
  /** Unique per attempt (container names). */
  id: string;
  /** What the sandbox started ahead for the run's first CLI (ahead.ts). */
  ahead?: SandboxAheadSource;
  runProcess(options: RunProcessOptions): Promise<RunProcessResult>;
}

export interface AttemptSandbox {
  /** The folders the sandbox makes private, and those it shows inside them (for explaining a file the CLI did not find). */
  areas: { hidden: string[]; visible: string[] };
  /** Runs the CLI of the attempt (gates and set-up run through executor.ts). */
  cli(options: RunProcessOptions): Promise<RunProcessResult>;
  /** host:port entries refused so far in this attempt. */
  refused: string[];
}

/** How the attempt's CLI is spawned: through the sandbox with the CLI's policy. */
export function attemptSandbox(input: AttemptSandboxInput): AttemptSandbox {
  const refused: string[] = [];
  const runnerFor = (purpose: 'cli', policy: SandboxPolicy) => {
    const onRefused = ({ host, port }: HostPort) => {
      const target = formatHostPort({ host, port });
      refused.push(target);
      input.event('sandbox_refused', { sandbox: input.sandbox.choice.name, purpose, host, port, target });
      input.notice(`sandbox ${input.sandbox.choice.name} refused a connection to ${target} (the CLI)`);
    };
    const ctx = sandboxContext({ env: input.env, self: input.self, notice: input.notice, onRefused });
    const { repoRoot, homeDir } = input.sandbox;
    const ahead = input.ahead ? { ahead: () => input.ahead!.take(onRefused) } : {};
    return sandboxedRunner({ sandbox: input.sandbox, ctx, purpose, policy, scratchDir: input.scratchDir, repoRoot, homeDir, id: `${input.id}-${purpose}`, ...(input.git ? { git: input.git } : {}), ...ahead, runProcess: input.runProcess });
  };
  const touching = (run: AttemptSandbox['cli']): AttemptSandbox['cli'] => (options) => {
    // The CLI may rewrite the worktree's git links: every earlier check of it is stale (SECURITY I3).
    worktreeTouched(options.cwd);
    return run(options);
  };
  if (input.sandbox.choice.name === DEFAULT_SANDBOX) return { cli: touching(input.runProcess), refused, areas: { hidden: [], visible: [] } };
  return {
    areas: { hidden: [input.sandbox.homeDir, input.sandbox.repoRoot, '/tmp'], visible: [input.cwd, input.scratchDir] },
    cli: touching(runnerFor('cli', cliPolicy(input.sandbox.choice, input.access, input.env, input.sandbox.homeDir, input.commandEnv))),
    refused,
  };
}
