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
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hostTarget, outputName } from '../pkg/targets.mjs';
import { claudeEnvelope } from '../../test/fixtures/bin/_fake-envelopes.mjs';

const TARGET_MS = 50;
const root = fileURLToPath(new URL('../..', import.meta.url));
const host = hostTarget();
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    binary: { type: 'string', default: host ? join(root, 'dist', outputName(host)) : undefined },
    json: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
try {
  statSync(values.binary ?? '');
} catch {
  console.error(`sandbox bench: ${values.binary} is missing; run "npm run build" first.`);
  process.exit(2);
}
const bwrap = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim();
if (!bwrap) {
  console.error('sandbox bench: bubblewrap (bwrap) is not installed: apt-get install bubblewrap');
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'sv-bench-sandbox-'));
const repo = join(scratch, 'repo');
const fakes = join(scratch, 'fakes');
mkdirSync(repo);
mkdirSync(fakes);
const git = (...args) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
git('init', '-q');
writeFileSync(join(repo, 'math.js'), 'export const add = (a, b) => a + b;\n');
git('add', '.');
git('-c', 'user.email=bench@example.com', '-c', 'user.name=bench', 'commit', '-qm', 'init');
const reply = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';
writeFileSync(join(fakes, 'envelope.json'), claudeEnvelope(reply, ['-p', '--output-format', 'json']));
writeFileSync(join(fakes, 'claude'), `#!/bin/sh\ncat >/dev/null\ncat "${join(fakes, 'envelope.json')}"\n`);
chmodSync(join(fakes, 'claude'), 0o755);
const env = { PATH: `${fakes}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: join(scratch, 'home'), LANG: 'C.UTF-8' };
mkdirSync(env.HOME);

const base = ['run', 'reviewer', '--cli', 'claude', '--task', 'Review math.js', '--target', 'math.js', '--retries', '0', '--json'];
const variants = [
  { name: 'run --sandbox none', args: [...base, '--sandbox', 'none'] },
  { name: 'run --sandbox bwrap (allow: proxy + bridge)', args: [...base, '--sandbox', 'bwrap', '--allow-host', '127.0.0.1:18080'] },
];
const samples = new Map(variants.map((v) => [v.name, []]));

function once(variant) {
  const start = process.hrtime.bigint();
  const result = spawnSync(values.binary, variant.args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${variant.name} exited ${result.status}: ${result.stderr}${result.stdout}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  for (const v of variants) once(v); // warm the page cache
  for (let i = 0; i < runs; i++) {
    const order = i % 2 ? [...variants].reverse() : variants;
    for (const v of order) samples.get(v.name).push(once(v));
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

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
