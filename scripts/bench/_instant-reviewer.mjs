// What the run, sandbox and MCP benches share: their arguments (--runs, --binary, --json) with the
// built binary checked, a one-file repository and a fake claude that answers at once with its
// real JSON envelope, and the median of samples.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hostTarget, outputName } from '../pkg/targets.mjs';
import { claudeEnvelope } from '../../test/fixtures/bin/_fake-envelopes.mjs';

/**
 * The bench's arguments: --runs (a number), --binary (default: this machine's built binary,
 * which must exist), --baseline (another binary, run in the same rounds), --json.
 */
export function benchArgs(bench, defaultRuns) {
  const host = hostTarget();
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: String(defaultRuns) },
      binary: { type: 'string', default: host ? join(root, 'dist', outputName(host)) : undefined },
      baseline: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  // Absolute: the commands run in the scratch repository, where a relative path finds nothing.
  const binary = values.binary && resolve(values.binary);
  const baseline = values.baseline && resolve(values.baseline);
  requireBinary(bench, binary);
  if (baseline) requireBinary(bench, baseline);
  return { runs: Number(values.runs), binary, baseline, json: values.json };
}

/** Exits 2 naming the bench when the binary is missing. */
export function requireBinary(bench, binary) {
  try {
    statSync(binary ?? '');
  } catch {
    console.error(`${bench} bench: ${binary} is missing; run "npm run build" first.`);
    process.exit(2);
  }
}

/** A scratch folder with `repo` (math.js, one commit) and the environment whose PATH finds the instant claude. */
export function instantReviewer(prefix) {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
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
  // Passed through: the sandbox bench measures the binary's own bridge with it (bwrap's held relay, _relay.ts).
  if (process.env.SUPERVISOR_NO_SYSTEMD_RELAY) env.SUPERVISOR_NO_SYSTEMD_RELAY = process.env.SUPERVISOR_NO_SYSTEMD_RELAY;
  mkdirSync(env.HOME);
  return { scratch, repo, env };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** GNU time, for the CPU (user + system) of a command and everything it started; null where it is missing. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/**
 * Runs each variant (`{ name, args, binary? }`: the bench's binary unless it names another) in
 * the reviewer's repository `runs` times, in turn (the order alternates every round, so a busy
 * machine's drift hits all), after one warm-up each; removes the scratch folder. Returns, by
 * variant name, the wall milliseconds and the CPU milliseconds of the whole process tree (NaN
 * without /usr/bin/time). `onSample(variant, { stdout, startedAt, endedAt })` is told each
 * measured sample (wall clock in ms), while the scratch folder and the run logs in it exist.
 */
export function sampleInTurn({ binary, scratch, repo, env }, variants, runs, onSample = () => {}) {
  const wall = new Map(variants.map((v) => [v.name, []]));
  const cpu = new Map(variants.map((v) => [v.name, []]));
  const timeFile = join(scratch, 'time.txt');
  const once = (variant) => {
    const command = [variant.binary ?? binary, ...variant.args];
    const startedAt = Date.now();
    const start = process.hrtime.bigint();
    const result = TIME
      ? spawnSync(TIME, ['-f', '%U %S', '-o', timeFile, ...command], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
      : spawnSync(command[0], command.slice(1), { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const endedAt = Date.now();
    if (result.status !== 0) throw new Error(`${variant.name} exited ${result.status}: ${result.stderr}${result.stdout}`);
    const [user, system] = TIME ? readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number) : [NaN, NaN];
    return { wall: ms, cpu: (user + system) * 1000, stdout: result.stdout, startedAt, endedAt };
  };
  try {
    for (const v of variants) once(v); // warm the page cache
    for (let i = 0; i < runs; i++) {
      const order = i % 2 ? [...variants].reverse() : variants;
      for (const v of order) {
        const sample = once(v);
        wall.get(v.name).push(sample.wall);
        cpu.get(v.name).push(sample.cpu);
        onSample(v, sample);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { wall, cpu };
}

/** The median of the differences b[i] - a[i] of samples taken in the same rounds. */
export const pairedDifference = (a, b) => median(b.map((x, i) => x - a[i]));
