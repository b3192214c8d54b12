/**
 * Everything before the first spawn, shared by `runRole` and `dryRunRole`: load the role,
 * pick the adapter, settle the settings (flags over role config over defaults), build the
 * prompt, and get the parser ready. Errors here are configuration errors (exit 2).
 */
import { isAbsolute, relative } from 'node:path';
import { roleLoadOptions } from '../roles/load-options.ts';
import { answerFormat, exampleAnswer } from '../output/answer-format.ts';
import { wantsLegacyGrammar } from '../output/legacy.ts';
import type { ParseOutputOptions } from '../output/parse-output.ts';
import { resolveVerdict, type Verdict } from '../output/verdict.ts';
import type { AdapterPlugin } from '../plugin-api/contracts.ts';
import type { BuiltPrompt } from '../prompt/build-prompt.ts';
import { DEFAULT_GRACE_MS } from '../process/run-process.ts';
import type { Role } from '../roles/role.ts';
import { trustErrors } from '../trust/errors.ts';
import { allowedCommands } from './allowed-commands.ts';
import { refuseUntrustedRole } from '../trust/untrusted-role.ts';
import { NO_AHEAD, startAhead, type RunAhead } from '../sandbox/ahead.ts';
import { cliPolicy } from '../sandbox/policy.ts';
import { checkSandbox, prepareSandbox, sandboxContext, type PreparedSandbox } from '../sandbox/runner.ts';
import { DEFAULT_GATE_TIMEOUT_S } from './gates.ts';
import type { RunRoleOptions } from './options.ts';
import { resolvePeers, type EnginePeers } from './peers.ts';
import { DEFAULT_BACKOFF_MS, DEFAULT_BREAKER_THRESHOLD, DEFAULT_MAX_RETRIES } from './retry-policy.ts';

export const DEFAULT_TIMEOUT_S = 600;
const CLI_OUTPUT_BYTES = 32 * 1024 * 1024;

export interface RunSettings {
  maxRetries: number;
  timeoutMs: number;
  gates: string[];
  gateTimeoutMs: number;
  maxCostUsd: number | null;
  graceMs: number;
  backoffMs: number;
  breakerThreshold: number;
  maxOutputBytes: number;
}

export interface PreparedRun {
  role: Role;
  adapterName: string;
  adapter: AdapterPlugin;
  built: BuiltPrompt;
  settings: RunSettings;
  peers: EnginePeers;
  /** Parses model text with the role's parser and schema; throws parse errors. */
  parse(text: string): Record<string, unknown>;
  /** The exact answer format, for stricter-instruction retries. */
  formatText: string;
  /** The answer's field that holds the verdict, and its words (schema `x-verdict` or config.verdict_field). */
  verdict: Verdict;
  /** The parser's example answer for the role, for offline adapters (CommandRequest.exampleAnswer). */
  exampleAnswer?: string;
  /** Notices gathered before the run log existed. */
  notices: string[];
  /** Where the CLI and the gates run (the `none` sandbox by default). */
  sandbox: PreparedSandbox;
  /** What the sandbox started ahead for the first attempt's CLI: released by whoever prepared the run, when it ends. */
  sandboxAhead: RunAhead;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function resolveSettings(role: Role, options: RunRoleOptions): RunSettings {
  const maxCost = options.maxCostUsd ?? num(role.config.max_cost_usd);
  return {
    maxRetries: Math.max(0, Math.floor(options.retries ?? num(role.config.max_retries) ?? DEFAULT_MAX_RETRIES)),
    timeoutMs: Math.round((options.timeoutSec ?? num(role.config.timeout) ?? DEFAULT_TIMEOUT_S) * 1000),
    gates: [...role.gates, ...(options.gates ?? [])],
    gateTimeoutMs: Math.round((options.gateTimeoutSec ?? num(role.config.gate_timeout) ?? DEFAULT_GATE_TIMEOUT_S) * 1000),
    maxCostUsd: maxCost === undefined ? null : maxCost,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
    breakerThreshold: options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD,
    maxOutputBytes: options.maxOutputBytes ?? CLI_OUTPUT_BYTES,
  };
}

/**
 * Roles that change files say so with `config.allow_edits: true` (the built-in implementer,
 * worker and oneshot do; overlays inherit it). The core knows no role by name.
 */
export function roleEditsFiles(role: Role): boolean {
  return role.config.allow_edits === true;
}

/** Where the prompt is packed from when not the repository root (see run-place.ts). */
export interface PackPlace {
  contextRoot: string;
  gitRange?: { base: string; head: string };
}

/** What a real run starts while its prompt is packed. */
export interface PrepareAhead {
  /** The sandbox starts the CLI's slow set-up (a dry run's does not). */
  ahead?: boolean;
  /**
   * Told the role once it is loaded, passed the trust checks and its sandbox (named) can run
   * here; while the prompt is packed (workspace-ahead.ts).
   */
  onTrusted?: (role: Role, peers: EnginePeers, sandbox: string) => void;
}

/** Prepares a run; see PrepareAhead for what a real run starts while the prompt is packed. */
export async function prepareRun(options: RunRoleOptions, place?: PackPlace, { ahead = false, onTrusted }: PrepareAhead = {}): Promise<PreparedRun> {
  const peers = await resolvePeers(options.peers);
  const { registry } = options;
  const notices: string[] = [];
  const notice = (message: string) => {
    notices.push(message);
    options.onNotice?.(message);
  };
  let role = await peers.loadRole(options.role, roleLoadOptions(registry, options));
  refuseUntrustedGates(role, options);
  await refuseUntrustedRole({
    role,
    repoRoot: options.repoRoot,
    trusted: options.trustedRepo === true,
    userRole: () => peers.loadRole(role.name, { ...roleLoadOptions(registry, options), withoutRepo: true }).catch(() => null),
    ...(options.sandbox === undefined ? {} : { flag: options.sandbox }),
    ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
    env: options.env,
  });
  if (options.cli) role = { ...role, cli: options.cli };
  role = withoutSetupFiles(role, options.workspace?.exclude ?? []);
  if (options.model) role = { ...role, extensions: { ...role.extensions, 'x-model': options.model } };
  const adapter = registry.get('adapter', role.cli);
  const sandbox = prepareSandbox(registry, { role: role.sandbox ?? undefined, flag: options.sandbox, allowHosts: options.allowHosts, passEnv: options.passEnv }, { repoRoot: options.repoRoot, homeDir: options.env.HOME || options.homeDir });
  const commands = allowedCommands({ role, flags: options.allowCommands ?? [], adapter, sandbox: sandbox.choice.name, notice });
  role = { ...role, allowed_commands: commands };
  // A sandbox that cannot run here is a configuration error, before anything starts; asked
  // while the prompt is packed (a probe of bwrap is a process of its own), said as soon as known.
  const sandboxChecked = checkSandbox(sandbox, sandboxContext({ env: options.env, self: peers.self, notice }));
  // The role is trusted and its sandbox can run here: what the caller starts now (its worktree) comes after every configuration error but the prompt's.
  const trusted = role;
  if (onTrusted) void sandboxChecked.then(() => onTrusted(trusted, peers, sandbox.choice.name), () => {});
  // The sandbox's slow set-up for the CLI, started before packing: the main thread is busy until the prompt is built.
  const policy = cliPolicy(sandbox.choice, adapter.access, options.env, sandbox.homeDir);
  const sandboxAhead = ahead ? startAhead(sandbox, policy, { env: options.env, self: peers.self, notice }) : NO_AHEAD;
  const packed = peers.buildPrompt({
    role,
    task: options.task,
    targets: options.targets ?? [],
    extraContext: options.extraContext ?? {},
    repoRoot: place?.contextRoot ?? options.repoRoot,
    ...(place?.gitRange ? { gitRange: place.gitRange } : {}),
    ...(options.trustedRepo ? { trustedRepo: true } : {}),
    registry,
    instructionsAsArguments: adapter.instructions === 'argument',
    ...(options.secretScan === false ? { secretScan: false } : {}),
    ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
    notice,
  });
  try {
    const parts = await preparedParts(role, options, peers, packed, sandboxChecked);
    return { ...parts, adapterName: role.cli, adapter, peers, notices, sandbox, sandboxAhead };
  } catch (error) {
    await sandboxAhead.release();
    throw error;
  }
}

/** The prompt once packed, the parser's reading of answers, the settings. */
async function preparedParts(role: Role, options: RunRoleOptions, peers: EnginePeers, packed: Promise<BuiltPrompt>, sandboxChecked: Promise<void>) {
  const { registry } = options;
  const [built] = await Promise.all([packed, sandboxChecked]);
  const reading: ParseOutputOptions = {
    registry,
    parser: role.parser ?? undefined,
    schema: built.outputSchema,
    role: { name: role.name, baseRole: role.base_role },
    legacy: wantsLegacyGrammar(role),
  };
  const parse = (text: string) => peers.parseOutput(text, reading);
  // A template's prompt already shows the schema's fields and an example; a plain prompt does not.
  const formatText = answerFormat({ ...reading, schemaInPrompt: built.template !== null });
  const verdict = resolveVerdict(built.outputSchema, role);
  const example = exampleAnswer(reading);
  return { role, built, settings: resolveSettings(role, options), parse, formatText, verdict, ...(example === undefined ? {} : { exampleAnswer: example }) };
}

/**
 * What set-up left in a caller's worktree (dependencies, files copied from the user's checkout
 * such as `.env`) is never packed: it joins the role's `context.exclude` (a folder as `dir/**`).
 */
function withoutSetupFiles(role: Role, paths: readonly string[]): Role {
  if (!paths.length) return role;
  const globs = paths.map((path) => (path.endsWith('/') ? `${path}**` : path));
  return { ...role, context: { ...role.context, exclude: [...(role.context.exclude ?? []), ...globs] } };
}

/**
 * Gates are shell commands: a role file of an untrusted repository (core/trust) may not have
 * them run. The user's own roles (~/.supervisor/roles, built-ins) and --gate are theirs.
 */
function refuseUntrustedGates(role: Role, options: RunRoleOptions): void {
  if (options.trustedRepo) return;
  const gatesFile = role.sources.gates;
  if (role.gates.length && gatesFile && isInside(gatesFile, options.repoRoot)) throw trustErrors.untrustedGates(role.name, gatesFile, role.gates, options.repoRoot);
  // Set-up commands are shell commands too.
  const setupFile = role.sources.setup;
  if (role.setup?.length && setupFile && isInside(setupFile, options.repoRoot)) throw trustErrors.untrustedSetup(role.name, setupFile, role.setup, options.repoRoot);
}

function isInside(file: string, root: string): boolean {
  const rel = relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
