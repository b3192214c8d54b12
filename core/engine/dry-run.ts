/**
 * `--dry-run`: everything up to the spawn (role, prompt, adapter command) and nothing after.
 * No worktree, no run log, no process: the scratch folder the adapter sees is a temporary
 * one, removed again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRoleOptions } from './options.ts';
import { prepareRun, type PackPlace, type RunSettings } from './prepare.ts';
import { resolveCommit, resolveReviewRange } from './start-point.ts';
import { adapterContext, buildRequest, commandEnv, commandFor } from './request.ts';
import { newRunId } from './run-id.ts';
import { statePaths } from './state-dir.ts';
import { inPlaceReason, inspectRepo } from './worktree.ts';

export interface DryRunResult {
  dry_run: true;
  role: string;
  base_role: string | null;
  cli: string;
  /** Where the CLI would run. */
  cwd: string;
  workspace: { mode: 'worktree' | 'in-place'; reason: string | null };
  command: { bin: string; args: string[]; stdin: string | null; env: Record<string, string> };
  /** The command as one shell line (for reading and copying). */
  command_line: string;
  prompt: string;
  prompt_tokens: number;
  output_schema: string;
  settings: RunSettings;
  notices: string[];
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
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
  const { role, built, peers } = prepared;
  const notice = (message: string) => {
    prepared.notices.push(message);
    options.onNotice?.(message);
  };
  const repo = await inspectRepo(options.repoRoot, { env: options.env, dirty: false });
  const inPlace = inPlaceReason(options.worktree !== false, repo);
  const runId = newRunId(role.name, peers.now(), peers.randomHex);
  const cwd = inPlace ? options.repoRoot : join(statePaths(options.repoRoot).worktrees, runId);
  const scratchDir = mkdtempSync(join(tmpdir(), 'supervisor-dry-run-'));
  try {
    const budget = prepared.settings.maxCostUsd ?? undefined;
    const request = buildRequest(prepared, { prompt: built.prompt, cwd, scratchDir, attempt: 1, maxBudgetUsd: budget });
    const spec = await commandFor(prepared, request, adapterContext(prepared, options.env, notice));
    const bin = spec.bin ?? prepared.adapter.bin;
    const env = commandEnv(prepared, spec);
    const envText = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)} `).join('');
    const stdinText = spec.stdin === undefined ? '' : ` < prompt  # stdin: ${Buffer.byteLength(spec.stdin)} bytes`;
    return {
      dry_run: true,
      role: role.name,
      base_role: role.base_role,
      cli: prepared.adapterName,
      cwd,
      workspace: { mode: inPlace ? 'in-place' : 'worktree', reason: inPlace },
      command: { bin, args: spec.args, stdin: spec.stdin ?? null, env },
      command_line: `cd ${shellQuote(cwd)} && ${envText}${[bin, ...spec.args].map(shellQuote).join(' ')}${stdinText}`,
      prompt: built.prompt,
      prompt_tokens: built.stats.promptTokens,
      output_schema: built.outputSchema.name,
      settings: prepared.settings,
      notices: prepared.notices,
    };
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}
