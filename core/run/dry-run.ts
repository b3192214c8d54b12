/**
 * `--dry-run`: everything up to the spawn (role, prompt, adapter command) and nothing after.
 * No worktree, no run log, no process: the scratch folder the adapter sees is a temporary one,
 * kept (and named) with the prompt, so the printed command runs as printed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { snakeKeys } from '../text/snake-keys.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRoleOptions } from './options.ts';
import { cliPolicy } from '../sandbox/policy.ts';
import { prepareRun, type PackPlace, type PreparedRun } from './prepare.ts';
import { resolveCommit, resolveReviewRange } from './start-point.ts';
import { adapterContext, buildRequest, commandEnv, commandFor } from './request.ts';
import { newRunId } from './run-id.ts';
import { statePaths } from '../state-dir.ts';
import { errors } from '../errors.ts';
import { inPlaceReason, inspectRepo } from './worktree.ts';
import { shellWord } from '../text/shell-word.ts';

export interface DryRunResult {
  dry_run: true;
  role: string;
  base_role: string | null;
  cli: string;
  /** Where the CLI would run. */
  cwd: string;
  workspace: { mode: 'worktree' | 'in-place'; reason: string | null };
  command: { bin: string; args: string[]; stdin: string | null; env: Record<string, string> };
  /**
   * The command as one shell line that runs as printed: it makes the worktree the run would
   * make (or runs in place), and reads the prompt from the kept files.
   */
  command_line: string;
  /** The kept folder holding the prompt (prompt.md) and whatever the adapter wrote for the command (schema files, ...). */
  files_dir: string;
  prompt: string;
  prompt_tokens: number;
  output_schema: string;
  /** The settings the run would use, snake_case as all --json output. */
  settings: Record<string, unknown>;
  /** The sandbox the CLI would run in and its network (the command above is what it wraps). */
  sandbox: { name: string; network: string; allow: string[] };
  notices: string[];
}

function sandboxView(prepared: PreparedRun, options: RunRoleOptions): DryRunResult['sandbox'] {
  const { choice } = prepared.sandbox;
  const policy = cliPolicy(choice, prepared.adapter.access, options.env, prepared.sandbox.homeDir);
  return { name: choice.name, network: policy.network, allow: policy.network === 'allow' ? policy.allow : [] };
}

/**
 * --base / --review / a caller's worktree, without making anything: the refs are checked, a
 * reviewed range gives the git parts, files come from the caller's worktree or the checkout.
 */
async function dryRunPlace(options: RunRoleOptions): Promise<PackPlace | undefined> {
  if (options.base !== undefined) await resolveCommit(options.repoRoot, options.base, '--base', options.env);
  const review = options.review === undefined ? null : await resolveReviewRange(options.repoRoot, options.review, options.base, options.env);
  if (!review && !options.workspace) return undefined;
  if (review && !options.workspace) options.onNotice?.(`dry run: files are read from your checkout; the run reads them at ${review.head.slice(0, 7)}`);
  return { contextRoot: options.workspace?.path ?? options.repoRoot, ...(review ? { gitRange: review } : {}) };
}

export async function dryRunRole(options: RunRoleOptions): Promise<DryRunResult> {
  const prepared = await prepareRun(options, await dryRunPlace(options));
  const { role, peers } = prepared;
  const notice = (message: string) => {
    prepared.notices.push(message);
    options.onNotice?.(message);
  };
  const repo = await inspectRepo(options.repoRoot, { env: options.env, dirty: false });
  if (repo.bare) throw errors.bareRepository(options.repoRoot); // as the real run would
  const inPlace = inPlaceReason(options.worktree !== false, repo);
  const runId = newRunId(role.name, peers.now(), peers.randomHex);
  const cwd = inPlace ? options.repoRoot : join(statePaths(options.repoRoot).worktrees, runId);
  // Kept, not removed: the command line names files in it (the prompt, schema files); removed
  // when the dry run fails (an adapter that refuses the request): nothing names it then.
  const scratchDir = mkdtempSync(join(tmpdir(), `supervisor-dry-run-${runId}-`));
  try {
    return await dryRunCommand(prepared, options, { scratchDir, cwd, inPlace, notice });
  } catch (error) {
    rmSync(scratchDir, { recursive: true, force: true });
    throw error;
  }
}

/** The command the run would start, its files written to `scratchDir`. */
async function dryRunCommand(prepared: PreparedRun, options: RunRoleOptions, at: { scratchDir: string; cwd: string; inPlace: string | null; notice: (message: string) => void }): Promise<DryRunResult> {
  const { role, built } = prepared;
  const { scratchDir, cwd, inPlace, notice } = at;
  const budget = prepared.settings.maxCostUsd ?? undefined;
  const request = buildRequest(prepared, { prompt: built.prompt, cwd, scratchDir, attempt: 1, maxBudgetUsd: budget });
  const spec = await commandFor(prepared, request, adapterContext(prepared, options.env, notice));
  const bin = spec.bin ?? prepared.adapter.bin;
  const env = commandEnv(prepared, spec);
  const envText = Object.entries(env).map(([k, v]) => `${k}=${shellWord(v)} `).join('');
  const stdinFile = join(scratchDir, 'stdin.txt');
  if (spec.stdin !== undefined) writeFileSync(stdinFile, spec.stdin);
  writeFileSync(join(scratchDir, 'prompt.md'), built.prompt);
  const stdinText = spec.stdin === undefined ? ' < /dev/null' : ` < ${shellWord(stdinFile)}`;
  const makeWorktree = inPlace ? '' : `git -C ${shellWord(options.repoRoot)} worktree add --detach -q ${shellWord(cwd)} HEAD && `;
  return {
    dry_run: true,
    role: role.name,
    base_role: role.base_role,
    cli: prepared.adapterName,
    cwd,
    workspace: { mode: inPlace ? 'in-place' : 'worktree', reason: inPlace },
    command: { bin, args: spec.args, stdin: spec.stdin ?? null, env },
    command_line: `${makeWorktree}cd ${shellWord(cwd)} && ${envText}${[bin, ...spec.args].map(shellWord).join(' ')}${stdinText}`,
    files_dir: scratchDir,
    prompt: built.prompt,
    prompt_tokens: built.stats.promptTokens,
    output_schema: built.outputSchema.name,
    settings: snakeKeys(prepared.settings) as Record<string, unknown>,
    sandbox: sandboxView(prepared, options),
    notices: prepared.notices,
  };
}
