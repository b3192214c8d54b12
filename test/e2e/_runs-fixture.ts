/** Run folders written as the engine writes them, for tests of `runs` and `gc`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A run folder as the engine writes it: events, and a full result when `status` is given. */
export function writeRun(repo: string, id: string, opts: { started: string; role?: string; status?: 'pass' | 'gaps'; pid?: number; events?: object[] }): string {
  const dir = join(repo, '.supervisor/runs', id);
  mkdirSync(dir, { recursive: true });
  const role = opts.role ?? 'reviewer';
  const events = [
    { ts: opts.started, kind: 'run_started', run_id: id, role, cli: 'claude', pid: opts.pid ?? 999_999_999 },
    ...(opts.events ?? []),
  ];
  writeFileSync(join(dir, 'events.jsonl'), events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  if (opts.status) {
    const result = {
      run_id: id, role, base_role: null, cli: 'claude', status: opts.status, exit_code: opts.status === 'pass' ? 0 : 1, output: null, reported_status: null,
      issues: [], failure: null, stop_reason: null,
      metrics: { input_tokens: 1, output_tokens: 1, cached_tokens: null, cost_usd: 0, cost_known: true, max_cost_usd: null, duration_ms: 5, cli_duration_ms: 4, attempts: 1, turns: null, model: null, session_id: null },
      git_range: null, branch: null, files_changed: [], worktree: { mode: 'worktree', path: join(repo, 'wt'), kept: false, reason: null },
      run_dir: dir, started_at: opts.started, finished_at: opts.started, notices: [],
    };
    writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
  }
  return dir;
}

