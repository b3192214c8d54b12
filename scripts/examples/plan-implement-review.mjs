#!/usr/bin/env node
// Plan → implement → review, driven from a script: supervisor's workflow does the loop.
//
//   node scripts/examples/plan-implement-review.mjs --task "Add input validation to add()" \
//     [--target FILE]... [--jobs N] [--cli NAME | --cli ROLE=NAME]... [--max-cost-usd N] [--repo DIR]
//
// 1. `workflow plan` runs the planner once and writes its phases as a workflow file (in a real
//    project a person reads and edits it here);
// 2. `workflow run <file> --json` runs it: each task in its own worktree, worker → reviewers,
//    the reviewers' issues back to the worker, merged into supervisor/wf/<id>; the checkout is
//    never touched (merge the branch when satisfied);
// 3. stopped at the cost ceiling or interrupted: `workflow resume <id>` continues it.
//
// stdout carries the workflow result (JSON) and nothing else; progress goes to stderr. The exit
// code is the workflow's: 0 every task integrated and the gates pass, 1 gaps, 2 usage, 130
// interrupted. SUPERVISOR_BIN picks the supervisor (default `supervisor` on PATH; a .mjs/.ts
// path runs with this Node). `--cli replay` runs it offline (SUPERVISOR_REPLAY: canned replies
// per task, role and round; see the README's Workflows section). A replay worker changes files
// only through canned changes (`.patch` files in that folder), and a worker round with no change
// is never integrated: add patches (scripts/examples/offline/replies has some) or give the worker
// a real CLI (`--cli replay --cli worker=claude`) to see tasks integrated.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { $, argv } from 'zx';

const USAGE = 'usage: plan-implement-review.mjs --task "<text>" [--target FILE]... [--jobs N] [--cli NAME | --cli ROLE=NAME]... [--max-cost-usd N] [--repo DIR]';
if (typeof argv.task !== 'string' || !argv.task.trim()) {
  console.error(USAGE);
  process.exit(2);
}
const bin = process.env.SUPERVISOR_BIN ?? 'supervisor';
const supervisor = /\.(m?js|ts)$/.test(bin) ? [process.execPath, resolve(bin)] : [bin];
const list = (name) => [argv[name] ?? []].flat().map(String);
const clis = list('cli');
$.cwd = resolve(argv.repo ?? '.');
$.quiet = true;

// 1. Plan: the planner runs on the CLI named for it (or for every role).
const planner = clis.find((c) => c.startsWith('planner=')) ?? clis.find((c) => !c.includes('='));
const file = join(mkdtempSync(join(tmpdir(), 'plan-')), 'workflow.yaml');
const planned = await $({ nothrow: true, stdio: ['ignore', 'pipe', 'inherit'] })`${supervisor} workflow plan --task ${argv.task} ${list('target').flatMap((t) => ['--target', t])} ${planner ? ['--cli', planner.replace(/^planner=/, '')] : []} --out ${file} --json`;
if (planned.exitCode !== 0) process.exit(planned.exitCode);

// 2. Run it; 3. resume once if it stopped at the ceiling (here with twice the ceiling).
const options = [...clis.filter((c) => !c.startsWith('planner=')).flatMap((c) => ['--cli', c]), ...(argv.jobs ? ['--jobs', String(argv.jobs)] : [])];
const ceiling = argv['max-cost-usd'] ? Number(argv['max-cost-usd']) : undefined;
let done = await $({ nothrow: true, stdio: ['ignore', 'pipe', 'inherit'] })`${supervisor} workflow run ${file} ${options} ${ceiling ? ['--max-cost-usd', String(ceiling)] : []} --json`;
let result = JSON.parse(done.stdout || 'null');
if (result?.status === 'stopped') {
  done = await $({ nothrow: true, stdio: ['ignore', 'pipe', 'inherit'] })`${supervisor} workflow resume ${result.workflow_id} ${options} --max-cost-usd ${String(2 * ceiling)} --json`;
  result = JSON.parse(done.stdout || 'null');
}
if (result) console.log(JSON.stringify(result, null, 2));
process.exit(done.exitCode ?? 1);
