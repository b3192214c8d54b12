// Where a benched run's wall time went, from its own run log: the time of each event the run
// recorded (events.jsonl, millisecond timestamps) against the moment the bench started the
// process and the moment it ended. Medians over samples, so a phase's share can be compared
// between two binaries or sandboxes without a profiler (whose own cost distorts start-up).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Consecutive phases: each ends at its event (or at the process's end), starting where the one before ended. */
const PHASES = [
  ['start to its log (Node, arguments, repository, role, prompt)', 'run_started'],
  ['worktree not yet made by then', 'workspace_ready'],
  ['to the CLI (set-up, sandbox wrap, standby)', 'cli_started'],
  ['the CLI', 'cli_exited'],
  ['answer, leftovers, worktree check and removal', 'workspace_removed'],
  ['the checkout compared, result written', 'run_finished'],
  ['to the end of the process', null],
];

/**
 * The phases of one sample: `stdout` is the run's --json result (its run_dir holds the log),
 * `startedAt`/`endedAt` the wall clock (ms) around the process. Null when the log cannot be read
 * or lacks an event (a run that kept its worktree has no workspace_removed).
 */
export function runPhases(stdout, startedAt, endedAt) {
  let times;
  try {
    const runDir = JSON.parse(stdout).run_dir;
    const events = readFileSync(join(runDir, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    times = new Map(events.map((e) => [e.kind, Date.parse(e.ts)]).reverse()); // the first of each kind
  } catch {
    return null;
  }
  const phases = {};
  let from = startedAt;
  for (const [name, kind] of PHASES) {
    const to = kind === null ? endedAt : times.get(kind);
    if (to === undefined) return null;
    phases[name] = to - from;
    from = to;
  }
  return phases;
}

/**
 * Phases by variant name, for sampleInTurn's onSample: `medians()` gives each run variant's
 * median per phase (variants whose output is no run's result, `--version`, have none).
 */
export function collectPhases(median) {
  const byVariant = new Map();
  return {
    onSample(variant, { stdout, startedAt, endedAt }) {
      const phases = runPhases(stdout, startedAt, endedAt);
      if (!phases) return;
      if (!byVariant.has(variant.name)) byVariant.set(variant.name, []);
      byVariant.get(variant.name).push(phases);
    },
    medians() {
      return Object.fromEntries([...byVariant].map(([name, samples]) => [name, Object.fromEntries(PHASES.map(([phase]) => [phase, median(samples.map((p) => p[phase]))]))]));
    },
  };
}

/** The medians as lines: one block per variant, one line per phase. */
export function phaseLines(medians) {
  return Object.entries(medians).flatMap(([name, phases]) => [`where ${name}'s time went (median per phase, from its run log):`, ...Object.entries(phases).map(([phase, ms]) => `  ${ms.toFixed(1).padStart(6)} ms  ${phase}`)]);
}
