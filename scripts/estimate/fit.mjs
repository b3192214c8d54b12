#!/usr/bin/env node
// Fits the weights of core/context/estimate.ts: least squares of the exact o200k count on the
// feature counts, file by file, each repository weighed equally (a file's weight is one over its
// repository's total), weights kept non-negative (features with a negative weight are dropped
// and the rest fitted again). Prints the weights and each repository's error, whole and by file.
//
//   node scripts/estimate/fit.mjs [scripts/estimate/data/*.csv]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const here = dirname(new URL(import.meta.url).pathname);
const files = process.argv.slice(2).length ? process.argv.slice(2) : readdirSync(join(here, 'data')).filter((f) => f.endsWith('.csv')).map((f) => join(here, 'data', f));

/** CSV rows (quoted paths allowed) as objects. */
function readCsv(file) {
  const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const names = head.split(',');
  return lines.map((line) => {
    const cells = [];
    for (const match of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
      cells.push(match[1]);
      if (match[2] === '') break;
    }
    return Object.fromEntries(names.map((n, i) => [n, i < 2 ? cells[i] : Number(cells[i])]));
  });
}

const rows = files.flatMap(readCsv);
const features = Object.keys(rows[0]).slice(4);
const repos = [...new Set(rows.map((r) => r.repo))];
const totals = Object.fromEntries(repos.map((repo) => [repo, rows.filter((r) => r.repo === repo).reduce((n, r) => n + r.o200k, 0)]));

/** Solves A x = b (Gaussian elimination with partial pivoting). */
function solve(A, b) {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c || M[c][c] === 0) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => (row[i] === 0 ? 0 : row[n] / row[i]));
}

function fit(active, use = rows) {
  const k = active.length;
  const A = Array.from({ length: k }, () => new Array(k).fill(0));
  const b = new Array(k).fill(0);
  for (const r of use) {
    const w = 1 / totals[r.repo];
    const x = active.map((f) => r[f]);
    for (let i = 0; i < k; i++) {
      b[i] += w * x[i] * r.o200k;
      for (let j = 0; j < k; j++) A[i][j] += w * x[i] * x[j];
    }
  }
  return solve(A, b);
}

/** Non-negative weights by feature name, fitted on `use`. */
function fitNonNegative(use) {
  let active = [...features];
  let weights;
  for (;;) {
    weights = fit(active, use);
    const negative = weights.findIndex((w) => w < 0);
    if (negative === -1) break;
    active = active.filter((_, i) => i !== negative);
  }
  const weightOf = Object.fromEntries(features.map((f) => [f, 0]));
  active.forEach((f, i) => (weightOf[f] = Number(weights[i].toFixed(4))));
  return weightOf;
}
const weightOf = fitNonNegative(rows);
console.log(`weights (${features.join(', ')}):`);
console.log(`  [${features.map((f) => weightOf[f]).join(', ')}]`);
const estimate = (r) => features.reduce((n, f) => n + weightOf[f] * r[f], 0);
for (const repo of repos) {
  const mine = rows.filter((r) => r.repo === repo);
  const exact = totals[repo];
  const est = mine.reduce((n, r) => n + estimate(r), 0);
  const chars = mine.reduce((n, r) => n + r.bytes / 4, 0);
  const fileErrors = mine.map((r) => Math.abs(estimate(r) - r.o200k) / Math.max(1, r.o200k)).sort((a, b) => a - b);
  const median = fileErrors[Math.floor(fileErrors.length / 2)];
  console.log(`${repo.padEnd(12)} files ${String(mine.length).padStart(5)}  exact ${String(exact).padStart(8)}  estimate ${((est / exact - 1) * 100).toFixed(1).padStart(6)}%  (4 chars/token ${((chars / exact - 1) * 100).toFixed(1).padStart(6)}%)  median file error ${(median * 100).toFixed(1)}%`);
}
// Held out: each repository estimated with weights fitted on the others only.
for (const repo of repos) {
  const held = fitNonNegative(rows.filter((r) => r.repo !== repo));
  const mine = rows.filter((r) => r.repo === repo);
  const est = mine.reduce((n, r) => n + features.reduce((m, f) => m + held[f] * r[f], 0), 0);
  console.log(`held out: ${repo.padEnd(12)} estimate ${((est / totals[repo] - 1) * 100).toFixed(1).padStart(6)}% with weights fitted on the others`);
}
