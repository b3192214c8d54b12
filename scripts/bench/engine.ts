#!/usr/bin/env -S node --import tsx
// The engine's own overhead per `supervisor run`: everything except the CLI's thinking time.
//
//   node --import tsx scripts/bench/engine.ts [--runs 20] [--files 5000] [--json]
//
// A fake `claude` (a shell script that prints a captured JSON envelope at once) answers every
// run, so what is measured is supervisor: loading the role, packing, rendering, the worktree
// (add, commit, remove), spawning, reading the envelope, parsing, validating, the run log.
// Four cases: {small repo (10 files), large repo (--files)} × {worktree, --no-worktree}, each
// run in-process through runRole after one warm-up run. Reports the median and p90 of the
// whole run, of the overhead (whole run minus the CLI process's own time), and the median of
// each phase read back from the run log, and (interleaved, so under the same load) what git
// alone needs to add and remove a worktree of the same repository: on a slow disk, checking
// out thousands of files dominates, and that part is git's, not the engine's.
// Not part of npm test: timing is noisy.
import { chmodSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parseArgs } from 'node:util';
import { git, makeRepo, scratchDir } from './_repo.ts';
import { runRole } from '../../core/run/run-role.ts';
import { readEvents } from '../../core/runs/runs-store.ts';
import { loadRegistry } from '../../core/plugins/load.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, files: { type: 'string', default: '5000' }, json: { type: 'boolean', default: false } },
});
const RUNS = Number(values.runs);
const ENVELOPE = JSON.stringify({
  type: 'result', subtype: 'success', is_error: false, duration_ms: 1, num_turns: 1, session_id: 'bench', total_cost_usd: 0.001,
  result: 'Done.\n\n```json\n{"status":"APPROVED","review_status":"APPROVED","issues":[]}\n```',
  usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
});


function fakeClaude(): string {
  const bin = scratchDir('sv-bench-bin-');
  writeFileSync(join(bin, 'envelope.json'), ENVELOPE);
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\ncat "${join(bin, 'envelope.json')}"\n`);
  chmodSync(join(bin, 'claude'), 0o755);
  return bin;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))] ?? NaN;
const ts = (events: { kind: string; ts: string }[], kind: string) => Date.parse(events.find((e) => e.kind === kind)?.ts ?? '');

async function bench(repo: string, worktree: boolean, env: Record<string, string | undefined>) {
  const registry = await loadRegistry({ repoRoot: repo, homeDir: repo, extraPaths: [], cwd: repo, userPlugins: false });
  const one = async () => {
    const epoch = Date.now();
    const t0 = performance.now();
    const result = await runRole({ role: 'reviewer', task: 'Review the change', worktree }, { repoRoot: repo, homeDir: repo, env, registry });
    const wall = performance.now() - t0;
    if (result.status !== 'pass') throw new Error(`bench run failed: ${JSON.stringify(result.failure)}`);
    const ev = readEvents(result.run_dir);
    return {
      wall,
      overhead: wall - result.metrics.cli_duration_ms,
      prepare: ts(ev, 'run_started') - epoch,
      workspace: ts(ev, 'workspace_ready') - ts(ev, 'prompt_built'),
      finish: ts(ev, 'run_finished') - ts(ev, 'cli_exited'),
    };
  };
  /** Plain git, interleaved with the runs so both see the same machine load. */
  const gitAlone = (i: number) => {
    const path = join(repo, '.supervisor', 'worktrees', `git-alone-${i}`);
    const t = performance.now();
    git(repo, 'worktree', 'add', '-q', '--detach', path, 'HEAD');
    git(repo, 'worktree', 'remove', '--force', path);
    return performance.now() - t;
  };
  await one(); // warm-up: module loading, file cache
  const samples: Awaited<ReturnType<typeof one>>[] = [];
  const plain: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    samples.push(await one());
    if (worktree) plain.push(gitAlone(i));
  }
  const pick = (k: keyof (typeof samples)[number]) => samples.map((s) => s[k]);
  return {
    wall_ms: { median: median(pick('wall')), p90: p90(pick('wall')) },
    overhead_ms: { median: median(pick('overhead')), p90: p90(pick('overhead')) },
    phase_median_ms: { prepare: median(pick('prepare')), open_workspace: median(pick('workspace')), cli_exit_to_finish: median(pick('finish')) },
    git_alone_ms: worktree ? median(plain) : 0,
  };
}

const bin = fakeClaude();
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
const repos = { small: makeRepo(10), [`${values.files} files`]: makeRepo(Number(values.files)) };
const report: Record<string, unknown> = {};

for (const [name, repo] of Object.entries(repos)) {
  for (const worktree of [true, false]) report[`${name}, ${worktree ? 'worktree' : 'in place'}`] = await bench(repo, worktree, env);
}

if (values.json) {
  console.log(JSON.stringify({ runs: RUNS, node: process.version, cases: report }, null, 2));
} else {
  console.log(`engine overhead per run (${RUNS} runs each after a warm-up; node ${process.version}; fake CLI answers at once)`);
  for (const [name, r] of Object.entries(report) as [string, Awaited<ReturnType<typeof bench>>][]) {
    console.log(
      `${name.padEnd(28)} run ${r.wall_ms.median.toFixed(0).padStart(4)} ms (p90 ${r.wall_ms.p90.toFixed(0)})  ` +
        `overhead ${r.overhead_ms.median.toFixed(0).padStart(4)} ms (p90 ${r.overhead_ms.p90.toFixed(0)})  ` +
        `prepare ${String(r.phase_median_ms.prepare).padStart(3)} ms  open workspace ${String(r.phase_median_ms.open_workspace).padStart(3)} ms  ` +
        `commit+remove ${String(r.phase_median_ms.cli_exit_to_finish).padStart(3)} ms` +
        (r.git_alone_ms ? `  | git alone ${r.git_alone_ms.toFixed(0)} ms` : ''),
    );
  }
  console.log('git alone = plain `git worktree add` + `git worktree remove` of the same repo, interleaved with the runs (same load)');
}
