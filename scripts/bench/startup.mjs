#!/usr/bin/env node
// Start-up and size of the single binary, against the embedded Node running an empty script.
//
//   node scripts/bench/startup.mjs [--runs 60] [--binary dist/supervisor-<host>] [--node <stock node>] [--json]
//
// Runs the three commands interleaved (the order rotates every round, so load on the machine
// hits all of them alike) and reports min and median wall time of each. Targets: --version
// within 20 ms of the bare Node, --help within 40 ms, size at most 113 MiB (110 until the o200k
// chunk's V8 code cache, 4.4 MiB, bought ~100 ms and ~12 MiB per exact count; 112 until the
// run's code cache, 1.8 MiB, bought ~100 ms of CPU per run). Exits 1 when a
// target is missed, so it can gate a release; it is not part of npm test (timing is noisy).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hostTarget, outputName } from '../pkg/targets.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// This machine's binary and the stock Node it embeds (the build's own naming).
const host = hostTarget();
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '60' },
    binary: { type: 'string', default: host ? join(root, 'dist', outputName(host)) : undefined },
    node: { type: 'string', default: host ? join(root, 'scripts', 'pkg', 'node_modules', host.npm, host.exe) : undefined },
    json: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!values.binary || !values.node) {
  console.error(`startup bench: no build target for ${process.platform}-${process.arch}; pass --binary and --node.`);
  process.exit(2);
}
for (const file of [values.binary, values.node]) {
  try {
    statSync(file);
  } catch {
    console.error(`startup bench: ${file} is missing; run "npm run build" first.`);
    process.exit(2);
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'sv-bench-'));
const empty = join(scratch, 'empty.js');
writeFileSync(empty, '');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch };

const variants = [
  { name: 'node empty.js', bin: values.node, args: [empty] },
  { name: 'supervisor --version', bin: values.binary, args: ['--version'] },
  { name: 'supervisor --help', bin: values.binary, args: ['--help'] },
];
const samples = new Map(variants.map((v) => [v.name, []]));

function once(variant) {
  const start = process.hrtime.bigint();
  const result = spawnSync(variant.bin, variant.args, { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${variant.name} exited ${result.status}: ${result.stderr}`);
  return ms;
}

for (const variant of variants) once(variant); // warm the page cache
for (let round = 0; round < runs; round++) {
  for (let i = 0; i < variants.length; i++) {
    const variant = variants[(round + i) % variants.length];
    samples.get(variant.name).push(once(variant));
  }
}
rmSync(scratch, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const stats = Object.fromEntries(variants.map((v) => [v.name, { min: Math.min(...samples.get(v.name)), median: median(samples.get(v.name)) }]));
const bare = stats['node empty.js'].median;
const sizeMiB = statSync(values.binary).size / 2 ** 20;
const checks = [
  { what: '--version over bare Node (median)', value: stats['supervisor --version'].median - bare, limit: 20, unit: 'ms' },
  { what: '--help over bare Node (median)', value: stats['supervisor --help'].median - bare, limit: 40, unit: 'ms' },
  { what: 'binary size', value: sizeMiB, limit: 113, unit: 'MiB' },
];
const ok = checks.every((c) => c.value <= c.limit);

if (values.json) {
  console.log(JSON.stringify({ runs, binary: values.binary, stats, checks, ok }, null, 2));
} else {
  console.log(`${runs} interleaved runs each; binary ${values.binary}`);
  for (const [name, s] of Object.entries(stats)) console.log(`  ${name.padEnd(22)} min ${s.min.toFixed(1).padStart(6)} ms   median ${s.median.toFixed(1).padStart(6)} ms`);
  for (const c of checks) console.log(`  ${c.value <= c.limit ? 'ok  ' : 'MISS'} ${c.what}: ${c.value.toFixed(1)} ${c.unit} (limit ${c.limit} ${c.unit})`);
}
process.exit(ok ? 0 : 1);
