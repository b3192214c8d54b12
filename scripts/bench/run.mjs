#!/usr/bin/env node
// A `run reviewer` with a CLI that answers at once, no sandbox, against `--version` of the same
// binary: the built binary, a one-file repository and a fake claude that prints its real JSON
// envelope (scripts/bench/_instant-reviewer.mjs, the set-up the sandbox and MCP benches share).
//
//   node scripts/bench/run.mjs [--runs 20] [--binary dist/supervisor-<host>] [--baseline <older binary>] [--json]
//
// The commands run in turn (the order alternates every round, so a busy machine's drift hits
// all); prints min and median wall and the median CPU (user + system of the process tree, from
// /usr/bin/time) of each, the run's median beside --version's, and with --baseline the same run
// of an older binary in the same rounds and the paired differences; then where each run's time
// went, phase by phase, from its run log (_run-phases.mjs). Target (issue 30): the run's median
// at most 120 ms. Exits 1 when it is missed, 2 when it cannot run; not part of npm test (timing
// is noisy).
import { loadavg } from 'node:os';
import { benchArgs, instantReviewer, median, pairedDifference, sampleInTurn } from './_instant-reviewer.mjs';
import { collectPhases, phaseLines } from './_run-phases.mjs';

const TARGET_MS = 120;
const values = benchArgs('run', 20);
const { runs } = values;

const { scratch, repo, env } = instantReviewer('sv-bench-run-');
const runArgs = ['run', 'reviewer', '--cli', 'claude', '--task', 'Review math.js', '--target', 'math.js', '--retries', '0', '--sandbox', 'none', '--json'];
const variants = [
  { name: 'supervisor --version', args: ['--version'] },
  { name: 'run reviewer --sandbox none', args: runArgs },
  ...(values.baseline ? [{ name: 'the same, baseline binary', args: runArgs, binary: values.baseline }] : []),
];
const phases = collectPhases(median);
const { wall, cpu } = sampleInTurn({ binary: values.binary, scratch, repo, env }, variants, runs, phases.onSample);
const phaseMedians = phases.medians();

const rows = variants.map((v) => ({ name: v.name, min_ms: Math.min(...wall.get(v.name)), median_ms: median(wall.get(v.name)), median_cpu_ms: median(cpu.get(v.name)) }));
const [version, run] = rows;
const against = values.baseline
  ? { wall_ms: pairedDifference(wall.get(rows[2].name), wall.get(run.name)), cpu_ms: pairedDifference(cpu.get(rows[2].name), cpu.get(run.name)) }
  : null;
const ok = run.median_ms <= TARGET_MS;
const load = loadavg()[0];
if (values.json) {
  console.log(JSON.stringify({ runs, variants: rows, run_over_version_ms: run.median_ms - version.median_ms, ...(against ? { run_minus_baseline: against } : {}), phases_ms: phaseMedians, target_ms: TARGET_MS, load_average: load, ok }, null, 2));
} else {
  for (const r of rows) console.log(`${r.name.padEnd(30)} min ${r.min_ms.toFixed(1).padStart(7)} ms   median ${r.median_ms.toFixed(1).padStart(7)} ms   CPU median ${r.median_cpu_ms.toFixed(0).padStart(5)} ms`);
  if (against) console.log(`run against the baseline, paired: ${against.wall_ms.toFixed(1)} ms wall, ${against.cpu_ms.toFixed(1)} ms CPU`);
  for (const line of phaseLines(phaseMedians)) console.log(line);
  console.log(`run reviewer (instant CLI, no sandbox): median ${run.median_ms.toFixed(1)} ms, ${(run.median_ms - version.median_ms).toFixed(1)} ms over --version (target <= ${TARGET_MS} ms) ${ok ? 'ok' : 'MISSED'}; load average ${load.toFixed(2)}`);
}
process.exit(ok ? 0 : 1);
