#!/usr/bin/env node
// The sandbox's own overhead per run: the same `supervisor run` of the built binary with a fake
// claude that answers at once (a shell script printing claude's real JSON envelope), without a
// sandbox and under `--sandbox bwrap` in allow mode with the network bridge (egress proxy
// outside, one forwarded loopback port; the network held ahead by systemd's socket relay where
// it is installed, else by `supervisor __bridge`; SUPERVISOR_NO_SYSTEMD_RELAY=1 in the bench's
// environment measures the bridge there too).
//
//   node scripts/bench/sandbox.mjs [--runs 20] [--binary dist/supervisor-<host>] [--baseline <older binary>] [--json]
//
// Runs the variants in turn (the order alternates every round) and reports min and median wall
// time and median CPU (user + system of the process tree, /usr/bin/time) of each, and the
// overhead of bwrap over none: the median of the per-round differences (pairs keep a busy
// machine's drift out) and the difference of the minimums. The load average is printed too: on
// a shared machine the figures move with it. --baseline runs an older binary's pair in the same
// rounds and prints its overhead too. Each run's time is split into phases from its run log
// (_run-phases.mjs), so where the overhead lands shows. Target (issue 30): median overhead at
// most 50 ms. Exits 1 when the target is missed, 2 when it cannot run (no binary, no bwrap);
// not part of npm test (timing is noisy).
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { benchArgs, instantReviewer, median, pairedDifference, sampleInTurn } from './_instant-reviewer.mjs';
import { collectPhases, phaseLines } from './_run-phases.mjs';

const TARGET_MS = 50;
const values = benchArgs('sandbox', 20);
const { runs } = values;
const bwrap = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim();
if (!bwrap) {
  console.error('sandbox bench: bubblewrap (bwrap) is not installed: apt-get install bubblewrap');
  process.exit(2);
}

const { scratch, repo, env } = instantReviewer('sv-bench-sandbox-');

const base = ['run', 'reviewer', '--cli', 'claude', '--task', 'Review math.js', '--target', 'math.js', '--retries', '0', '--json'];
const pair = (suffix, binary) => [
  { name: `run --sandbox none${suffix}`, args: [...base, '--sandbox', 'none'], binary },
  { name: `run --sandbox bwrap (allow: proxy + bridge)${suffix}`, args: [...base, '--sandbox', 'bwrap', '--allow-host', '127.0.0.1:18080'], binary },
];
const variants = [...pair('', values.binary), ...(values.baseline ? pair(', baseline', values.baseline) : [])];
const phases = collectPhases(median);
const { wall, cpu } = sampleInTurn({ binary: values.binary, scratch, repo, env }, variants, runs, phases.onSample);
const phaseMedians = phases.medians();

const rows = variants.map((v) => ({ name: v.name, min_ms: Math.min(...wall.get(v.name)), median_ms: median(wall.get(v.name)), median_cpu_ms: median(cpu.get(v.name)) }));
/** Median of the paired differences bwrap − none, and the difference of the minimums, for the pair at `at`. */
const overheadOf = (at) => ({ overhead_ms: pairedDifference(wall.get(rows[at].name), wall.get(rows[at + 1].name)), overhead_of_min_ms: rows[at + 1].min_ms - rows[at].min_ms });
const { overhead_ms: overhead, overhead_of_min_ms: overheadOfMin } = overheadOf(0);
const baseline = values.baseline ? overheadOf(2) : null;
const ok = overhead <= TARGET_MS;
const load = loadavg()[0];
if (values.json) {
  console.log(JSON.stringify({ runs, variants: rows, overhead_ms: overhead, overhead_of_min_ms: overheadOfMin, ...(baseline ? { baseline } : {}), phases_ms: phaseMedians, target_ms: TARGET_MS, load_average: load, ok }, null, 2));
} else {
  for (const r of rows) console.log(`${r.name.padEnd(56)} min ${r.min_ms.toFixed(1).padStart(7)} ms   median ${r.median_ms.toFixed(1).padStart(7)} ms   CPU median ${r.median_cpu_ms.toFixed(0).padStart(5)} ms`);
  if (baseline) console.log(`baseline's sandbox overhead: median of paired differences ${baseline.overhead_ms.toFixed(1)} ms, difference of minimums ${baseline.overhead_of_min_ms.toFixed(1)} ms`);
  for (const line of phaseLines(phaseMedians)) console.log(line);
  console.log(`sandbox overhead: median of paired differences ${overhead.toFixed(1)} ms, difference of minimums ${overheadOfMin.toFixed(1)} ms (target <= ${TARGET_MS} ms) ${ok ? 'ok' : 'MISSED'}; load average ${load.toFixed(2)}`);
}
process.exit(ok ? 0 : 1);
