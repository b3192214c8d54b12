#!/usr/bin/env node
// A plan → implement → review loop in zx, driving `supervisor run ... --json`.
//
//   node scripts/examples/plan-implement-review.mjs --task "Add input validation to add()" \
//     [--target src/math.js]... [--max-rounds 3] [--cli NAME | --cli ROLE=NAME]... [--replay-dir DIR] [--repo DIR]
//
// 1. the planner plans the task once;
// 2. the implementer works in its own git worktree; its commit (branch supervisor/<run-id>)
//    is fast-forwarded into the current branch so the next steps see it;
// 3. the reviewer reviews; on CHANGES_REQUESTED its issues go back to the implementer, until
//    it says APPROVED or --max-rounds is reached.
//
// stdout carries one JSON summary (and nothing else); progress goes to stderr. Exit code: 0
// approved, 1 not approved within the rounds, 2 usage, otherwise the failing run's exit code.
//
// SUPERVISOR_BIN picks the supervisor to run (default: `supervisor` on PATH; a .mjs/.ts path
// runs with this Node, e.g. bin/supervisor.mjs from a checkout). --replay-dir runs offline with
// the replay adapter: for round N of role R it replays DIR/N-R.md, else DIR/R.md (see replies/);
// --cli implementer=claude (say) still sends one role to a real CLI.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { $, argv } from 'zx';

const USAGE = 'usage: plan-implement-review.mjs --task "<text>" [--target FILE]... [--max-rounds N] [--cli NAME | --cli ROLE=NAME]... [--replay-dir DIR] [--repo DIR]';
function usage(problem) {
  console.error(problem ? `${problem}\n${USAGE}` : USAGE);
  process.exit(2);
}

const task = argv.task;
if (typeof task !== 'string' || !task.trim()) usage();
const targets = [argv.target ?? []].flat().map(String);
const maxRounds = Number(argv['max-rounds'] ?? 3);
if (!Number.isInteger(maxRounds) || maxRounds < 1) usage(`--max-rounds expects a whole number >= 1, got "${argv['max-rounds']}"`);
const repo = resolve(argv.repo ?? '.');
const replayDir = argv['replay-dir'] ? resolve(argv['replay-dir']) : undefined;
// --cli NAME for every role, --cli ROLE=NAME for one (repeatable); --replay-dir implies replay.
const cliOptions = [argv.cli ?? []].flat().map(String);
const cliForAll = cliOptions.find((c) => !c.includes('=')) ?? (replayDir ? 'replay' : undefined);
const cliByRole = Object.fromEntries(cliOptions.filter((c) => c.includes('=')).map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)]));
const cliFor = (role) => cliByRole[role] ?? cliForAll;

const bin = process.env.SUPERVISOR_BIN ?? 'supervisor';
const command = /\.(m?js|ts)$/.test(bin) ? [process.execPath, resolve(bin)] : [bin];
const log = (text) => process.stderr.write(`${text}\n`);
$.cwd = repo;
$.quiet = true;

/** The replay file for this round and role, when running offline. */
function replayFor(role, round) {
  if (!replayDir) return {};
  const file = [join(replayDir, `${round}-${role}.md`), join(replayDir, `${role}.md`)].find((f) => existsSync(f));
  return file ? { SUPERVISOR_REPLAY: file } : {};
}

/** One `supervisor run`; returns its JSON result. Exit 1 (gaps) is an answer, not a failure. */
async function run(role, roleTask, round) {
  const cli = cliFor(role);
  const args = ['run', role, '--task', roleTask, ...targets.flatMap((t) => ['--target', t]), ...(cli ? ['--cli', cli] : []), '--json'];
  const env = { ...process.env, ...replayFor(role, round) };
  const done = await $({ env, nothrow: true })`${command} ${args}`;
  if (!done.stdout.trim()) {
    log(`supervisor run ${role} failed (exit ${done.exitCode}):\n${done.stderr.trim()}`);
    process.exit(done.exitCode || 2);
  }
  const result = JSON.parse(done.stdout);
  log(`${role} (round ${round}): ${result.status}${result.reported_status ? ` / ${result.reported_status}` : ''} [${result.run_id}]`);
  if (result.status === 'error') {
    console.log(JSON.stringify({ approved: false, stopped_at: role, round, failure: result.failure, run_id: result.run_id }, null, 2));
    process.exit(result.exit_code || 3);
  }
  return result;
}

const bullet = (items) => items.map((item) => `- ${typeof item === 'string' ? item : JSON.stringify(item)}`).join('\n');

const plan = await run('planner', task, 1);
const planText = `The plan:\n${bullet(plan.output?.phases ?? [])}`;
const runs = [{ role: 'planner', run_id: plan.run_id, status: plan.status }];
let feedback = '';
let approved = false;
let round = 1;
for (; round <= maxRounds && !approved; round++) {
  const implemented = await run('implementer', `${task}\n\n${planText}${feedback}`, round);
  runs.push({ role: 'implementer', round, run_id: implemented.run_id, status: implemented.status, files_changed: implemented.files_changed });
  if (implemented.branch) await $`git merge --ff-only -q ${implemented.branch}`;
  const review = await run('reviewer', `Review the change made for this task: ${task}\n\n${implemented.output?.action_taken ?? ''}`, round);
  runs.push({ role: 'reviewer', round, run_id: review.run_id, status: review.status, verdict: review.output?.status ?? null });
  approved = review.output?.status === 'APPROVED';
  const issues = (review.output?.issues ?? []).map((i) => `[${i.severity}] ${i.file ? `${i.file}${i.line ? `:${i.line}` : ''}: ` : ''}${i.description}${i.suggestion ? ` (${i.suggestion})` : ''}`);
  feedback = issues.length ? `\n\nThe reviewer asked for these changes; make them:\n${bullet(issues)}` : '';
}

console.log(JSON.stringify({ approved, rounds: round - 1, max_rounds: maxRounds, runs }, null, 2));
process.exit(approved ? 0 : 1);
