/** Human text for runs: the summary after `run`, progress lines, `runs list` and `runs show`. */
import { relative } from 'node:path';
import { renderTable } from '../text/table.ts';
import type { DryRunResult } from '../run/dry-run.ts';
import { failureIssue, type RunResult } from '../run/result.ts';
import type { RunEvent } from '../run/run-log.ts';
import type { RunRecord, RunSummary } from './runs-store.ts';

function formatDuration(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function formatCost(cost: number | null, known: boolean): string {
  if (cost === null) return 'unknown';
  const text = `$${cost.toFixed(4)}`;
  return known ? text : `≥${text} (some attempts reported no cost)`;
}

function formatTokens(input: number | null, output: number | null, cached: number | null = null): string {
  if (input === null && output === null) return 'unknown';
  const n = (v: number | null) => (v === null ? '?' : v.toLocaleString('en-US'));
  return `${n(input)} in / ${n(output)} out${cached ? ` (${n(cached)} cached)` : ''}`;
}

function short(range: string): string {
  return range
    .split('..')
    .map((sha) => sha.slice(0, 9))
    .join('..');
}

export function renderResult(result: RunResult, cwd: string): string {
  const m = result.metrics;
  const lines = [
    `${result.status.toUpperCase()}  ${result.role} via ${result.cli}  (${m.attempts} attempt${m.attempts === 1 ? '' : 's'}, ${formatDuration(m.duration_ms)})`,
  ];
  if (result.reported_status) lines.push(`answer status: ${result.reported_status}`);
  // The failure is also the last issue (for scripts); say it once here.
  const failureLine = result.failure ? failureIssue(result.failure, result.stop_reason ?? null) : null;
  if (failureLine) lines.push(`failure: ${failureLine}`);
  const issues = result.issues.filter((i) => i !== failureLine);
  if (issues.length) lines.push('issues:', ...issues.map((issue) => `  - ${issue}`));
  if (result.output) lines.push('output:', ...JSON.stringify(result.output, null, 2).split('\n').map((l) => `  ${l}`));
  if (result.git_range && result.branch) {
    lines.push(`changes: ${result.files_changed?.length ?? 0} file(s) on ${result.branch} (${short(result.git_range)})`);
    lines.push(...(result.files_changed ?? []).map((f) => `  ${f}`));
  } else if (result.worktree.mode === 'worktree') {
    lines.push('changes: none');
  } else {
    lines.push(`ran in place (${result.worktree.reason}); changes, if any, are in ${result.worktree.path}`);
  }
  if (result.worktree.kept) lines.push(`worktree kept: ${result.worktree.path}`);
  const interrupted = result.failure?.class === 'interrupted';
  const cost = interrupted
    ? `${m.cost_usd === null ? 'unknown' : `$${m.cost_usd.toFixed(4)}`} before the interruption (the attempt cut off reported no cost)`
    : m.cost_usd === null
      ? `unknown (${result.cli} reported none)`
      : `${formatCost(m.cost_usd, m.cost_known)}${m.cost_source === 'price-table' ? ' (from tokens at list prices: the price table)' : ''}`;
  lines.push(`tokens: ${formatTokens(m.input_tokens, m.output_tokens, m.cached_tokens)}   cost: ${cost}${m.max_cost_usd === null ? '' : ` (ceiling $${m.max_cost_usd})`}`);
  lines.push(`run: ${result.run_id}   log: ${relative(cwd, result.run_dir) || '.'}`);
  return lines.join('\n');
}

export function renderDryRun(dry: DryRunResult): string {
  return [
    `# dry run: ${dry.role} via ${dry.cli} (nothing was started)`,
    `# prompt (${dry.prompt_tokens} tokens, schema ${dry.output_schema})`,
    '',
    dry.prompt.trimEnd(),
    '',
    `# command (in ${dry.workspace.mode === 'worktree' ? 'a new worktree' : `place: ${dry.workspace.reason}`}; runs as printed; its files are kept in ${dry.files_dir})`,
    dry.command_line,
    ...(dry.sandbox.name === 'none'
      ? []
      : [`# in the ${dry.sandbox.name} sandbox, network ${dry.sandbox.network}${dry.sandbox.allow.length ? `: ${dry.sandbox.allow.join(', ')}` : ''}`]),
  ].join('\n');
}

/** One progress line per interesting event (stderr, TTY only); null: nothing to show. */
export function describeEvent(event: RunEvent): string | null {
  const e = event as Record<string, unknown>;
  switch (event.kind) {
    case 'run_started':
      return `run ${String(e.run_id)}: ${String(e.role)} via ${String(e.cli)}`;
    case 'prompt_built': {
      const cut = Array.isArray(e.truncated) && e.truncated.length ? `; cut at the budget line: ${e.truncated.join(', ')}` : '';
      const left = Array.isArray(e.left_out) && e.left_out.length ? `; ${e.left_out.length} file${e.left_out.length === 1 ? '' : 's'} left out` : '';
      return `prompt: ${String(e.tokens)} tokens${cut}${left}`;
    }
    case 'attempt_started':
      return `attempt ${String(e.attempt)}: starting ${String(e.bin)}`;
    case 'cli_exited':
      return `attempt ${String(e.attempt)}: ${String(e.bin ?? 'CLI')} finished in ${formatDuration(Number(e.duration_ms))} (exit ${String(e.exit_code)})`;
    case 'parsed':
      return `attempt ${String(e.attempt)}: answer ${String(e.reported_status ?? '(no status)')} -> ${String(e.status)}`;
    case 'parse_failed':
    case 'cli_failed': {
      const f = e.failure as { class: string; detail: string };
      return `attempt ${String(e.attempt)}: ${f.class}: ${f.detail}`;
    }
    case 'gate_passed':
      return `gate passed: ${String(e.command)}`;
    case 'gate_failed':
      return `gate failed: ${String(e.command)} (exit ${String(e.exit_code)})`;
    case 'retry':
      return `retrying (${String(e.mode)}) after ${String(e.because)}${Number(e.delay_ms) ? ` in ${formatDuration(Number(e.delay_ms))}` : ''}`;
    case 'stopped':
      return `stopped: ${String(e.detail)}`;
    case 'sandbox_refused':
      return `sandbox ${String(e.sandbox)} refused a connection to ${String(e.target)} (${e.purpose === 'gate' ? 'a gate' : e.purpose === 'setup' || e.during === 'setup' ? 'set-up' : 'the CLI'})`;
    case 'committed':
      return `committed ${(e.files_changed as string[]).length} file(s) on ${String(e.branch)}`;
    default:
      return null;
  }
}

/**
 * One line for any event of the run log (`runs show`, `runs tail`): the progress line where
 * there is one, the text of notices and where the workspace is, else the event's kind.
 */
export function describeLoggedEvent(event: RunEvent): string {
  const e = event as Record<string, unknown>;
  switch (event.kind) {
    case 'notice':
      return `notice: ${String(e.message)}`;
    case 'workspace_ready':
      return e.mode === 'worktree' ? `workspace: worktree ${String(e.path)}` : `workspace: in place, ${String(e.path)}${e.reason ? ` (${String(e.reason)})` : ''}`;
    case 'workspace_removed':
      return `workspace removed: ${String(e.path)}`;
    case 'run_finished':
      return `finished: ${String(e.status)} (exit ${String(e.exit_code)})`;
    default:
      return describeEvent(event) ?? event.kind;
  }
}

export function renderRunsList(runs: RunSummary[]): string {
  if (!runs.length) return 'No runs yet in this repository (.supervisor/runs/ is empty).';
  return renderTable(
    ['RUN', 'STATUS', 'ROLE', 'CLI', 'ATTEMPTS', 'TOKENS', 'COST', 'DURATION'],
    runs.map((r) => [
      r.run_id,
      r.state === 'finished' ? (r.status ?? '-') : r.state,
      r.role ?? '-',
      r.cli ?? '-',
      String(r.attempts),
      r.input_tokens === null && r.output_tokens === null ? '-' : `${r.input_tokens ?? '?'}/${r.output_tokens ?? '?'}`,
      r.state === 'finished' && r.cost_usd !== null ? `$${r.cost_usd.toFixed(4)}${r.cost_known ? '' : '+'}` : '-',
      r.state === 'finished' ? formatDuration(r.duration_ms) : r.state,
    ]),
  );
}

const STATE_TEXT: Record<RunSummary['state'], string> = {
  running: 'still running (follow it: supervisor runs tail <run> -f)',
  incomplete: 'cut short: its process is gone and it wrote no result',
  finished: 'finished without a readable result',
};

/** The head of `runs show` for a run without a result: what it is, never a made-up duration. */
function renderUnfinished(summary: RunSummary, cwd: string): string {
  const status = summary.state === 'finished' ? (summary.status ?? 'error').toUpperCase() : summary.state.toUpperCase();
  return [
    `${status}  ${summary.role ?? '?'} via ${summary.cli ?? '?'}  (${summary.attempts} attempt(s)${summary.state === 'finished' ? '' : ' so far'}; ${STATE_TEXT[summary.state]})`,
    `run: ${summary.run_id}   log: ${relative(cwd, summary.run_dir) || '.'}`,
  ].join('\n');
}

export function renderRunShow(record: RunRecord, cwd: string): string {
  const head = record.result ? renderResult(record.result, cwd) : renderUnfinished(record.summary, cwd);
  const events = record.events.map((event) => `  ${event.ts.slice(11, 23)}  ${describeLoggedEvent(event)}`);
  return [head, '', 'events:', ...events].join('\n');
}
