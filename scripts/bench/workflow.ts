#!/usr/bin/env -S node --import tsx
// The workflow engine's speed: does it keep --jobs busy, and what does it cost per task?
//
//   node --import tsx scripts/bench/workflow.ts [--sleep-ms 3000] [--tasks 8] [--files 5000] [--repeat 3] [--count-git] [--json]
//
// A fake `claude` (a shell script) answers every run with a captured-style JSON envelope in the
// v2 format of the role it runs for, after sleeping $FAKE_SLEEP_S seconds when set. Three cases,
// in-process through runWorkflow on real temporary repositories:
//   1. parallelism: 8 independent tasks (worker only) whose CLI sleeps --sleep-ms, --jobs 4;
//      the ideal is two waves (2 × sleep); the target is within 1.15× of it.
//   2. overhead per task: the CLI answers at once; each task is worker → spec-reviewer →
//      code-quality-reviewer, --jobs 1; on a small repository (10 files) and a large one
//      (--files). Reported: wall time per task, the part spent inside runRole (its runs), and
//      the workflow's own part (worktree, review ranges, merges, state events), beside the
//      ideal: `git worktree add` alone on the same repository (the checkout a slot costs; the
//      workflow makes one slot here and switches it from task to task), and the own part beyond
//      the time the slot's checkout took in it, from its events (on this disk one checkout of
//      5,000 files takes from half a second to seconds, with what was written just before).
//   3. one worktree per task: a task of three rounds (the spec reviewer says gaps twice); and
//      how many checkouts were made (worktree slots are reused from task to task: at most --jobs).
//   4. the merge queue: the same independent tasks at --jobs 4 with a workflow gate that takes
//      1 s (`sleep 1`, gates_on: merge: every candidate merge tested before the branch moves),
//      against the same workflow without gates: the queue's cost per task, the time in the
//      gates per candidate, and what the queue adds on top of the gate itself.
// The fake worker writes one file per round (an empty worker round is never integrated).
// --count-git: the overhead case on the large repository once more with a git that counts its
// calls: git processes per task, a figure the machine's load does not move (each is a spawn on
// the critical path).
// Not part of npm test: timing is noisy.
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parseArgs } from 'node:util';
import { git, makeRepo, scratchDir } from './_repo.ts';
import { loadRegistry } from '../../core/plugins/load.ts';
import { runRole } from '../../core/run/run-role.ts';
import { runWorkflow } from '../../core/workflow/engine/run-workflow.ts';
import { WorkflowStore } from '../../core/workflow/engine/store.ts';
import type { Workflow, WorkflowTask } from '../../core/plugin-api/workflow-model.ts';

const { values } = parseArgs({
  options: {
    'sleep-ms': { type: 'string', default: '3000' },
    tasks: { type: 'string', default: '8' },
    files: { type: 'string', default: '5000' },
    repeat: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    'count-git': { type: 'boolean', default: false },
  },
});
const SLEEP_MS = Number(values['sleep-ms']);
const TASKS = Number(values.tasks);
// A fresh HOME: slots go under $HOME/.supervisor/worktrees, and on this machine's own home,
// where test runs made and removed thousands of worktrees, one checkout of 5,000 files took
// 6 s against 0.5 s in a fresh folder (that is the file system's state, not the workflow's).
process.env.HOME = scratchDir('sv-wfbench-home-');


function envelope(result: string): string {
  return JSON.stringify({
    type: 'result', subtype: 'success', is_error: false, duration_ms: 1, num_turns: 1, session_id: 'bench', total_cost_usd: 0.001, result,
    usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  });
}

/** The fake CLI: sleeps $FAKE_SLEEP_S (worker only), answers for $SUPERVISOR_ROLE; task "three"'s spec reviewer says gaps in rounds 1 and 2. */
function fakeClaude(): string {
  const bin = scratchDir('sv-wfbench-bin-');
  writeFileSync(join(bin, 'worker.json'), envelope('role: worker\ntask_id: bench\nstatus: pass\ngit_range: HEAD..HEAD\nfiles_changed: \n\nDone.'));
  for (const role of ['spec-reviewer', 'code-quality-reviewer']) writeFileSync(join(bin, `${role}.json`), envelope(`role: ${role}\ntask_id: bench\nstatus: pass\nconfidence: high\n\nFine.`));
  writeFileSync(join(bin, 'gaps.json'), envelope('role: spec-reviewer\ntask_id: bench\nstatus: gaps\nconfidence: high\nissues: not yet\n\nIssues found.'));
  writeFileSync(
    join(bin, 'claude'),
    [
      '#!/bin/sh',
      'cat > /dev/null',
      `if [ "$SUPERVISOR_ROLE" = worker ] && [ -n "$FAKE_SLEEP_S" ]; then sleep "$FAKE_SLEEP_S"; fi`,
      `if [ "$SUPERVISOR_ROLE" = worker ]; then echo "$SUPERVISOR_TASK_ID round $SUPERVISOR_ROUND" > "bench-$SUPERVISOR_TASK_ID.txt"; fi`,
      `if [ "$SUPERVISOR_TASK_ID" = three ] && [ "$SUPERVISOR_ROLE" = spec-reviewer ] && [ "$SUPERVISOR_ROUND" -lt 3 ]; then cat "${bin}/gaps.json"; exit 0; fi`,
      `cat "${bin}/$SUPERVISOR_ROLE.json"`,
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'claude'), 0o755);
  return bin;
}

function task(id: string, reviewers: string[]): WorkflowTask {
  return { id, title: id, task: `Do ${id}.`, files: [], depends_on: [], worker: 'worker', reviewers, cli: 'claude', model: null, gates: [], max_rounds: 3, approve: false };
}

function workflow(id: string, tasks: WorkflowTask[]): Workflow {
  return {
    id, name: id, source: { file: `/bench/${id}.yaml`, reader: 'bench' }, base: null, jobs: null, gates: [], gates_on: 'merge', max_cost_usd: null,
    defaults: { worker: 'worker', reviewers: [], cli: null, model: null, max_rounds: 3, approve: false }, merge: 'merge', on_event: [], models: {}, tasks,
  };
}

/**
 * One workflow; `inRuns`: the time inside its runRole calls, each whole (at --jobs 1 they never
 * overlap). A run's duration_ms ends before its result is written, so it leaves ~3 ms of each
 * run outside (the figures before the ninth pass subtracted those instead).
 */
async function run(repo: string, wf: Workflow, jobs: number, env: Record<string, string | undefined>) {
  const registry = await loadRegistry({ repoRoot: repo, homeDir: repo, extraPaths: [], cwd: repo, userPlugins: false });
  let inRuns = 0;
  const timedRunRole: typeof runRole = async (...args) => {
    const start = performance.now();
    try {
      return await runRole(...args);
    } finally {
      inRuns += performance.now() - start;
    }
  };
  const t0 = performance.now();
  const result = await runWorkflow({ workflow: wf, repoRoot: repo, homeDir: repo, env, registry, jobs, runRole: timedRunRole });
  const wall = performance.now() - t0;
  if (result.status !== 'pass') throw new Error(`bench workflow ${wf.id} ended ${result.status}: ${JSON.stringify(result.tasks.map((t) => [t.id, t.status, t.issues]))}`);
  const inDurations = result.tasks.reduce((sum, t) => sum + t.metrics.duration_ms, 0);
  return { wall, inRuns, inDurations, result };
}

const bin = fakeClaude();
const baseEnv = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
const small = makeRepo(10);

// 1. Parallelism (after a warm-up workflow: module loading is not the scheduler's), --repeat
//    times: the median counts (the machine's load moves single runs a lot).
await run(small, workflow('warm-parallel', [task('w', [])]), 1, baseEnv);
const ids = Array.from({ length: TASKS }, (_, i) => `t${i + 1}`);
const walls: number[] = [];
for (let n = 1; n <= Number(values.repeat); n++) {
  walls.push((await run(small, workflow(n === 1 ? 'parallel' : `parallel-${n}`, ids.map((id) => task(id, []))), 4, { ...baseEnv, FAKE_SLEEP_S: String(SLEEP_MS / 1000) })).wall);
}
const parallel = { wall: [...walls].sort((a, b) => a - b)[Math.floor(walls.length / 2)]! };
const ideal = Math.ceil(TASKS / 4) * SLEEP_MS;

// 2. Overhead per task. A warm-up workflow on the small repository first, so module loading is
//    not counted; none on the large one: its slot's removal (5,000 files deleted) would slow the
//    next checkout by seconds on a disk mounted with `discard` (seen here), and that is the disk's.
const overhead = async (repo: string, label: string, warm: boolean) => {
  if (warm) await run(repo, workflow(`warm-${label}`, [task('w', ['spec-reviewer', 'code-quality-reviewer'])]), 1, baseEnv);
  const { wall, inRuns, inDurations } = await run(repo, workflow(`overhead-${label}`, ids.map((id) => task(id, ['spec-reviewer', 'code-quality-reviewer']))), 1, baseEnv);
  return { per_task_ms: Math.round(wall / TASKS), in_runs_per_task_ms: Math.round(inRuns / TASKS), workflow_own_per_task_ms: Math.round((wall - inRuns) / TASKS), beyond_run_durations_per_task_ms: Math.round((wall - inDurations) / TASKS) };
};
/** Checkouts the ideal made, removed once every case has run (a removal slows what follows on such a disk). */
const idealCheckouts: { repo: string; dir: string }[] = [];
/**
 * The ideal beside the workflow's own part: `git worktree add` alone (one checkout of `repo`, the
 * one thing a task's isolation cannot do without), just before the workflow, on the same disk state.
 */
function worktreeAddAlone(repo: string): number {
  const dir = join(scratchDir('sv-wfbench-ideal-'), 'wt');
  const t0 = performance.now();
  git(repo, 'worktree', 'add', '-q', '--detach', dir);
  idealCheckouts.push({ repo, dir });
  return Math.round(performance.now() - t0);
}
const slotsMade = (id: string, repo: string) => new WorkflowStore(repo, id).events().filter((e) => e.kind === 'worktree_ready' && e.created).length;
/** The time the workflow's slots took to make, from its events: each `worktree_ready` that made one, since the event before it. */
function checkoutsMs(id: string, repo: string): number {
  const events = new WorkflowStore(repo, id).events();
  return events.reduce((sum, e, i) => (e.kind === 'worktree_ready' && e.created && i > 0 ? sum + Date.parse(e.ts) - Date.parse(events[i - 1]!.ts) : sum), 0);
}
/** The overhead case beside its ideal, and its own part less the time its slots' checkouts took. */
const withIdeal = async (repo: string, label: string, warm: boolean) => {
  const ideal = worktreeAddAlone(repo);
  const measured = await overhead(repo, label, warm);
  const checkouts = checkoutsMs(`overhead-${label}`, repo);
  return { ...measured, ideal_worktree_add_ms: ideal, slots_made: slotsMade(`overhead-${label}`, repo), slot_checkouts_ms: checkouts, own_beyond_checkouts_per_task_ms: Math.round(measured.workflow_own_per_task_ms - checkouts / TASKS) };
};
const smallOverhead = await withIdeal(small, 'small', true);
const large = makeRepo(Number(values.files));
const largeOverhead = await withIdeal(large, 'large', false);

// 3. One worktree for a task of three rounds.
const three = await run(small, workflow('three-rounds', [task('three', ['spec-reviewer'])]), 1, baseEnv);
const ready = new WorkflowStore(small, 'three-rounds').events().filter((e) => e.kind === 'worktree_ready');
const worktrees = ready.length;

// 4. The merge queue with a 1 s gate, against the same workflow without gates (--jobs 4).
const ungated = await run(small, workflow('queue-base', ids.map((id) => task(id, []))), 4, baseEnv);
const gated = await run(small, { ...workflow('queue', ids.map((id) => task(id, []))), gates: ['sleep 1'], gates_on: 'merge' }, 4, baseEnv);
const mq = gated.result.merge_queue;
const gatesPerCandidate = mq.gates_ms / Math.max(1, mq.candidates);

/** The overhead case on `repo` with a git that counts its calls (ours and git's own sub-gits alike). */
async function gitCallsPerTask(repo: string): Promise<number> {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const counter = scratchDir('sv-wfbench-git-');
  const log = join(counter, 'calls');
  writeFileSync(join(counter, 'git'), `#!/bin/sh\necho >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(counter, 'git'), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${counter}${delimiter}${path ?? ''}`; // git run with this process's environment too
  try {
    await run(repo, workflow('count-git', ids.map((id) => task(`c-${id}`, ['spec-reviewer', 'code-quality-reviewer']))), 1, { ...baseEnv, PATH: `${counter}${delimiter}${baseEnv.PATH}` });
  } finally {
    process.env.PATH = path;
  }
  return Math.round((readFileSync(log, 'utf8').length / TASKS) * 10) / 10;
}
const gitPerTask = values['count-git'] ? await gitCallsPerTask(large) : null;

for (const { repo, dir } of idealCheckouts) git(repo, 'worktree', 'remove', '--force', dir);

const report = {
  parallel: { tasks: TASKS, jobs: 4, sleep_ms: SLEEP_MS, wall_ms: Math.round(parallel.wall), walls_ms: walls.map(Math.round), ideal_ms: ideal, ratio: Number((parallel.wall / ideal).toFixed(3)), target: 1.15 },
  overhead_small_repo: smallOverhead,
  overhead_large_repo: { files: Number(values.files), ...largeOverhead, ...(gitPerTask === null ? {} : { git_processes_per_task: gitPerTask }) },
  three_rounds: { rounds: three.result.tasks[0]!.rounds, runs: three.result.tasks[0]!.runs.length, worktrees: worktrees },
  checkouts_made: { parallel: slotsMade('parallel', small), 'overhead-large': slotsMade('overhead-large', large) },
  merge_queue: {
    tasks: TASKS,
    jobs: 4,
    gate_ms: 1000,
    candidates: mq.candidates,
    wall_ms: Math.round(gated.wall),
    wall_without_gates_ms: Math.round(ungated.wall),
    cost_per_task_ms: Math.round((gated.wall - ungated.wall) / TASKS),
    gates_per_candidate_ms: Math.round(gatesPerCandidate),
    queue_own_per_candidate_ms: Math.round(gatesPerCandidate - 1000),
    waited_ms: mq.waited_ms,
  },
};
if (process.env.BENCH_DEBUG) console.error(small, large);
if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const p = report.parallel;
  console.log(`parallel: ${p.tasks} tasks × ${p.sleep_ms} ms, --jobs ${p.jobs}: median ${p.wall_ms} ms of [${p.walls_ms.join(', ')}], ideal ${p.ideal_ms} ms → ${p.ratio}× (target ≤ ${p.target}×) ${p.ratio <= p.target ? 'OK' : 'OVER'}`);
  for (const [label, o] of [['small repo (10 files)', smallOverhead], [`large repo (${values.files} files)`, largeOverhead]] as const) {
    console.log(`overhead per task, ${label}: ${o.per_task_ms} ms (runs: ${o.in_runs_per_task_ms} ms for worker + 2 reviewers; workflow's own: ${o.workflow_own_per_task_ms} ms (beyond the runs' duration_ms: ${o.beyond_run_durations_per_task_ms} ms); the ideal, \`git worktree add\` alone here: ${o.ideal_worktree_add_ms} ms; its ${o.slots_made} slot checkout${o.slots_made === 1 ? '' : 's'} took ${o.slot_checkouts_ms} ms, the own part beyond ${o.slots_made === 1 ? 'it' : 'them'}: ${o.own_beyond_checkouts_per_task_ms} ms)`);
  }
  if (gitPerTask !== null) console.log(`git processes per task, large repo (worker + 2 reviewers, the merge): ${gitPerTask}`);
  console.log(`three rounds: ${report.three_rounds.rounds} rounds, ${report.three_rounds.runs} runs, ${report.three_rounds.worktrees} worktree`);
  console.log(`checkouts made: ${report.checkouts_made.parallel} for ${TASKS} tasks at --jobs 4; ${report.checkouts_made['overhead-large']} for ${TASKS} tasks at --jobs 1 on the large repo`);
  const q = report.merge_queue;
  console.log(`merge queue, ${q.tasks} tasks at --jobs ${q.jobs}, a ${q.gate_ms} ms gate: ${q.candidates} candidates, ${q.wall_ms} ms (${q.wall_without_gates_ms} ms without gates) → ${q.cost_per_task_ms} ms per task; ${q.gates_per_candidate_ms} ms in the gates per candidate (${q.queue_own_per_candidate_ms} ms beyond the gate: the candidate's worktree); tasks waited ${q.waited_ms} ms in all for the queue`);
}
