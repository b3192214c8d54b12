#!/usr/bin/env node
// The sandbox's own overhead per run: the same `supervisor run` of the built binary with a fake
// claude that answers at once (a shell script printing claude's real JSON envelope), without a
// sandbox and under `--sandbox bwrap` in allow mode with the network bridge (egress proxy
// outside, `supervisor __bridge` inside, one forwarded loopback port).
//
//   node scripts/bench/sandbox.mjs [--runs 20] [--binary dist/supervisor-<host>] [--json]
//
// Runs the variants in pairs (the order alternates every round) and reports min and median wall
// time of each, and the overhead of bwrap over none: the median of the per-round differences
// (pairs keep a busy machine's drift out) and the difference of the minimums. The load average
// is printed too: on a shared machine the figures move with it. Target (issue 30): median overhead at most
// 50 ms. Exits 1 when the target is missed, 2 when it cannot run (no binary, no bwrap); not
// part of npm test (timing is noisy).
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { benchArgs, instantReviewer, median, sampleInTurn } from './_instant-reviewer.mjs';

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
const variants = [
  { name: 'run --sandbox none', args: [...base, '--sandbox', 'none'] },
  { name: 'run --sandbox bwrap (allow: proxy + bridge)', args: [...base, '--sandbox', 'bwrap', '--allow-host', '127.0.0.1:18080'] },
];
const samples = sampleInTurn({ binary: values.binary, scratch, repo, env }, variants, runs);

const rows = variants.map((v) => ({ name: v.name, min_ms: Math.min(...samples.get(v.name)), median_ms: median(samples.get(v.name)) }));
const [none, boxed] = variants.map((v) => samples.get(v.name));
const overhead = median(boxed.map((ms, i) => ms - none[i]));
const overheadOfMin = rows[1].min_ms - rows[0].min_ms;
const ok = overhead <= TARGET_MS;
const load = loadavg()[0];
if (values.json) {
  console.log(JSON.stringify({ runs, variants: rows, overhead_ms: overhead, overhead_of_min_ms: overheadOfMin, target_ms: TARGET_MS, load_average: load, ok }, null, 2));
} else {
  for (const r of rows) console.log(`${r.name.padEnd(46)} min ${r.min_ms.toFixed(1).padStart(7)} ms   median ${r.median_ms.toFixed(1).padStart(7)} ms`);
  console.log(`sandbox overhead: median of paired differences ${overhead.toFixed(1)} ms, difference of minimums ${overheadOfMin.toFixed(1)} ms (target <= ${TARGET_MS} ms) ${ok ? 'ok' : 'MISSED'}; load average ${load.toFixed(2)}`);
}
process.exit(ok ? 0 : 1);
