#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx (Node 20's --test takes no globs).
// Extra arguments are passed to node --test (e.g. --test-name-pattern=...); a path argument
// that ends in .test.ts narrows the run to those files.
// Every test and every process it starts writes its temporary files under one root of this
// run (TMPDIR points there), removed at the end: nothing is left loose in the system's /tmp.
// A folder or file of ours (named sv-*, supervisor-*, plan-*) that appears there anyway (a
// process started with an environment of its own, without TMPDIR) is named, and fails the run
// in CI (a machine of its own; elsewhere another supervisor may be at work meanwhile).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : find(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const chosen = args.filter((a) => a.endsWith('.test.ts'));
const options = args.filter((a) => !a.endsWith('.test.ts'));
const files = chosen.length ? chosen : find('test').sort();
const OURS = /^(sv-|supervisor-|plan-)/;
const before = new Set(readdirSync(tmpdir()));
const root = mkdtempSync(join(tmpdir(), 'sv-tests-'));
// Worktrees live outside checkouts (core/state-dir.ts): in-process tests keep theirs under the root too.
const env = { ...process.env, TMPDIR: root, SUPERVISOR_TEST_TMP: root, SUPERVISOR_WORKTREES_DIR: join(root, 'worktrees'), SUPERVISOR_CACHE_DIR: join(root, 'cache') };
// The usual report on stdout, and each failed test once more at the end (scripts/test-failures.mjs).
const failuresFile = join(root, 'failures.txt');
const reporters = ['--test-reporter', process.stdout.isTTY ? 'spec' : 'tap', '--test-reporter-destination', 'stdout', '--test-reporter', './scripts/test-failures.mjs', '--test-reporter-destination', failuresFile];
// A file that hangs fails, named, after 5 minutes (the longest takes ~1 minute, ~2 on a loaded machine).
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...reporters, ...options, ...files], { stdio: 'inherit', env });
const failed = readFileSync(failuresFile, { encoding: 'utf8', flag: 'a+' });
if (failed) process.stdout.write(`\n# failed tests, each once more:\n${failed}`);
try {
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
} catch (error) {
  process.stderr.write(`test: could not remove ${root}: ${error.message}\n`);
}
// Another run of the suite on this machine makes its own sv-tests-* root: not a leak of this one.
const left = readdirSync(tmpdir()).filter((name) => OURS.test(name) && !before.has(name) && !name.startsWith('sv-tests-'));
if (left.length) process.stderr.write(`test: left in ${tmpdir()} by the tests (they must write under TMPDIR): ${left.join(', ')}\n`);
const leaked = left.length > 0 && process.env.CI === 'true';
process.exit(result.status === null ? 1 : result.status || (leaked ? 1 : 0));
