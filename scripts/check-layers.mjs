#!/usr/bin/env node
// The layer check `npm test` runs first: no import cycle among files or among areas (each
// core/<dir>, plugins/<dir>, each file directly in core/), and the rules of ARCHITECTURE.md's
// layer diagram. Imports are read by dependency-cruiser, type-only imports included.
// Usage: node scripts/check-layers.mjs [root]   (exit 1 and the offending imports on failure)
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { cruise } from 'dependency-cruiser';

/** Entry points, highest first: each may import only those after it. */
const ENTRY_POINTS = ['core/binary', 'core/cli', 'core/mcp'];

/** The layer rules, as dependency-cruiser `forbidden` rules. */
export const RULES = [
  {
    name: 'builtins-use-the-plugin-api',
    comment: 'a built-in plugin imports only the public plugin API and helpers of its own folder',
    from: { path: '^plugins/([^/]+)/' },
    to: { path: '^(core|plugins)/', pathNot: ['^core/plugin-api/', '^plugins/$1/'] },
  },
  {
    name: 'plugin-api-knows-no-engine',
    comment: 'the public plugin API imports no engine, workflow, application or entry point',
    from: { path: '^core/plugin-api/' },
    to: { path: '^core/(run|runs|workflow|app|cli|mcp|binary)/' },
  },
  {
    name: 'one-step-knows-no-workflow',
    comment: 'the one-step engine (core/run) imports nothing of the workflow',
    from: { path: '^core/run/' },
    to: { path: '^core/workflow/' },
  },
  ...ENTRY_POINTS.map((entry, index) => ({
    name: `only-entry-points-above-import-${entry.slice('core/'.length)}`,
    comment: `only ${ENTRY_POINTS.slice(0, index).join(', ') || 'nothing'} may import the entry point ${entry}`,
    from: { pathNot: [`^${entry}/`, ...ENTRY_POINTS.slice(0, index).map((above) => `^${above}/`)] },
    to: { path: `^${entry}/` },
  })),
];

/** The area of a file: core/<dir>, plugins/<dir>, or the file itself when it sits directly in core/ or plugins/. */
export function areaOf(file) {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : file;
}

/** Strongly connected components of `graph` (Map node → Set of nodes) with more than one node (Tarjan). */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** One shortest cycle through `start` inside `members` (breadth first), as a list of nodes ending at start. */
function cycleThrough(graph, start, members) {
  const from = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        for (let at = from.get(node); at !== null; at = from.get(at)) path.unshift(at);
        return [...path, start];
      }
      if (!from.has(to)) {
        from.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** The areas by layer, lowest first, in an acyclic area graph. */
function formatLevels(graph) {
  const level = new Map();
  const levelOf = (area, seen = new Set()) => {
    if (level.has(area)) return level.get(area);
    if (seen.has(area)) return 0;
    seen.add(area);
    const below = [...(graph.get(area) ?? [])].map((to) => levelOf(to, seen) + 1);
    const value = Math.max(0, ...below);
    level.set(area, value);
    return value;
  };
  for (const area of graph.keys()) levelOf(area);
  const rows = [];
  for (const [area, value] of level) (rows[value] ??= []).push(area);
  return rows.map((areas, index) => `${index}: ${areas.sort().join('  ')}`).join('\n');
}

/** Problems (lines of text) of the tree at `root`: file cycles, area cycles, rule violations. */
export async function checkLayers(root, options = {}) {
  const roots = ['core', 'plugins'].filter((dir) => existsSync(resolve(root, dir)));
  const cwd = process.cwd();
  process.chdir(root);
  let result;
  try {
    const tsConfig = existsSync('tsconfig.json') ? { fileName: 'tsconfig.json' } : undefined;
    ({ output: result } = await cruise(roots, {
      tsPreCompilationDeps: true,
      tsConfig,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: ['node_modules', '\\.d\\.ts$'] },
      validate: true,
      ruleSet: { forbidden: [{ name: 'no-file-cycle', severity: 'error', from: {}, to: { circular: true } }, ...RULES.map((rule) => ({ severity: 'error', ...rule }))] },
    }));
  } finally {
    process.chdir(cwd);
  }
  const problems = [];
  const local = (path) => /^(core|plugins)\//.test(path);
  const fileCycles = new Set();
  for (const v of result.summary.violations) {
    if (v.rule.name === 'no-file-cycle') {
      const files = [v.from, ...v.cycle.map((step) => (typeof step === 'string' ? step : step.name))];
      const key = [...files.slice(0, -1)].sort().join(' ');
      if (fileCycles.has(key)) continue;
      fileCycles.add(key);
      problems.push(`file cycle: ${files.join(' -> ')}`);
    } else {
      const comment = RULES.find((rule) => rule.name === v.rule.name)?.comment ?? '';
      problems.push(`${v.rule.name}: ${v.from} imports ${v.to} (${comment})`);
    }
  }
  // Areas: the example import of each edge is kept to print the imports that close a cycle.
  const graph = new Map();
  const example = new Map();
  for (const module of result.modules) {
    if (!local(module.source)) continue;
    const from = areaOf(module.source);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dep of module.dependencies) {
      if (!local(dep.resolved)) continue;
      const to = areaOf(dep.resolved);
      if (to === from) continue;
      graph.get(from).add(to);
      if (!example.has(`${from} ${to}`)) example.set(`${from} ${to}`, `${module.source} -> ${dep.resolved}`);
    }
  }
  if (options.levels) options.levels(graph);
  for (const component of cycles(graph)) {
    const path = cycleThrough(graph, component[0], new Set(component));
    problems.push(`area cycle among ${component.length} areas (${component.join(', ')}); one of its loops:`);
    for (let i = 0; i + 1 < path.length; i++) problems.push(`  ${path[i]} -> ${path[i + 1]}: ${example.get(`${path[i]} ${path[i + 1]}`)}`);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('check-layers.mjs')) {
  const args = process.argv.slice(2);
  const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? '.');
  // --levels: each area's layer (0 imports no other area; n imports only layers below n), for ARCHITECTURE.md
  const levels = args.includes('--levels') ? (graph) => console.log(formatLevels(graph)) : undefined;
  const problems = await checkLayers(root, { levels });
  if (problems.length) {
    console.error(`check-layers: ${problems.length} problem(s) in the imports of ${root}:`);
    for (const line of problems) console.error(line);
    process.exit(1);
  }
  console.error('check-layers: no import cycle among files or areas; the layer rules hold');
}
