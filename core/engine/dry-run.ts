/**
 * `--dry-run`: everything up to the spawn (role, prompt, adapter command) and nothing after.
 * No worktree, no run log, no process: the scratch folder the adapter sees is a temporary
 * one, removed again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRoleOptions } from './options.ts';
import { prepareRun, type RunSettings } from './prepare.ts';
import { adapterContext, buildRequest, commandFor } from './request.ts';
import { newRunId } from './run-id.ts';
import { statePaths } from './state-dir.ts';
import { inspectRepo } from './worktree.ts';

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

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

export async function dryRunRole(options: RunRoleOptions): Promise<DryRunResult> {
  const prepared = await prepareRun(options);
  const { role, built, peers } = prepared;
  const repo = await inspectRepo(options.repoRoot);
  const inPlaceReason = options.worktree === false ? '--no-worktree was given' : !repo.isRepo ? 'not a git repository' : !repo.head ? 'the repository has no commits yet' : null;
  const runId = newRunId(role.name, peers.now(), peers.randomHex);
  const cwd = inPlaceReason ? options.repoRoot : join(statePaths(options.repoRoot).worktrees, runId);
  const scratchDir = mkdtempSync(join(tmpdir(), 'supervisor-dry-run-'));
  try {
    const budget = prepared.settings.maxCostUsd ?? undefined;
    const request = buildRequest(prepared, { prompt: built.prompt, cwd, scratchDir, attempt: 1, maxBudgetUsd: budget });
    const spec = await commandFor(prepared, request, adapterContext(prepared, options.env, (m) => prepared.notices.push(m)));
    const bin = spec.bin ?? prepared.adapter.bin;
    const env = { ...prepared.adapter.quietEnv, ...spec.env };
    const envText = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)} `).join('');
    const stdinText = spec.stdin === undefined ? '' : ` < prompt  # stdin: ${Buffer.byteLength(spec.stdin)} bytes`;
    return {
      dry_run: true,
      role: role.name,
      base_role: role.base_role,
      cli: prepared.adapterName,
      cwd,
      workspace: { mode: inPlaceReason ? 'in-place' : 'worktree', reason: inPlaceReason },
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
