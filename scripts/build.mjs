#!/usr/bin/env node
// npm run build: the single executable, offline (the npm registry is the only network used).
//
//   1. installs the packaging toolchain in scripts/pkg/ from its own lock file (npm ci)
//   2. bundles core/binary/main.ts into one CommonJS file with esbuild, assets inlined
//   3. lays the stock Node of each target (pinned npm packages node-<os>-<arch>) into pkg's
//      SEA cache, stripped, so pkg never downloads
//   4. makes V8's code cache of the bundle by a warm run of `--help` on that Node 24
//   5. runs pkg's SEA pipeline with that same Node: a small loader as the SEA main, the bundle
//      and its code cache as SEA assets → dist/supervisor-<target> (see scripts/pkg/pack.cjs)
//
// SUPERVISOR_TARGETS=linux-x64,win-x64 narrows the targets (default: all; a cross target whose
// Node package the registry cannot provide is skipped with a warning). SUPERVISOR_REPRODUCIBLE=1
// leaves out the V8 code cache, whose bytes vary between builds, for byte-identical binaries.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { $, chalk, fs } from 'zx';

const root = fileURLToPath(new URL('..', import.meta.url));
const toolchain = join(root, 'scripts', 'pkg');
const dist = join(root, 'dist');
const work = join(dist, '.build');
const started = Date.now();
const step = (text) => console.error(chalk.bold(`build: ${text}`) + chalk.dim(` (${((Date.now() - started) / 1000).toFixed(1)} s)`));

$.cwd = root;
$.verbose = false;
$.quiet = true;

/** Whether scripts/pkg/node_modules holds exactly what its lock file pins (see pkg/dist.mjs). */
async function toolchainInstalled() {
  const { lockSatisfied } = await import('./pkg/dist.mjs');
  try {
    const lock = JSON.parse(readFileSync(join(toolchain, 'package-lock.json'), 'utf8'));
    const installed = JSON.parse(readFileSync(join(toolchain, 'node_modules', '.package-lock.json'), 'utf8'));
    return lockSatisfied(lock, installed);
  } catch {
    return false;
  }
}

if (!(await toolchainInstalled())) {
  step('installing the packaging toolchain (npm ci in scripts/pkg)');
  await $({ cwd: toolchain, stdio: ['ignore', 'inherit', 'inherit'] })`npm ci --no-audit --no-fund`;
}

const { TARGETS, NODE_VERSION, NODE_FLAGS, hostTarget, outputName, pkgTarget } = await import('./pkg/targets.mjs');
const { bundle, CHUNKS_WITHOUT_CODE_CACHE, ENTRY_CHUNKS } = await import('./pkg/bundle.mjs');
const { stockNode, prepareSeaCache } = await import('./pkg/node-binaries.mjs');
const { clearBinaries, writeChecksums } = await import('./pkg/dist.mjs');

const host = hostTarget();
if (!host) throw new Error(`The build runs on linux-x64, linux-arm64 or win-x64 hosts, not ${process.platform}-${process.arch}.`);
const hostNode = stockNode(host, work);
if (!hostNode.path) throw new Error(`No Node ${NODE_VERSION} for this host: ${hostNode.reason}`);

const wanted = process.env.SUPERVISOR_TARGETS ? process.env.SUPERVISOR_TARGETS.split(',').map((s) => s.trim()) : TARGETS.map((t) => t.id);
const unknown = wanted.filter((id) => !TARGETS.some((t) => t.id === id));
if (unknown.length) throw new Error(`Unknown target(s) ${unknown.join(', ')}; known: ${TARGETS.map((t) => t.id).join(', ')}`);

mkdirSync(work, { recursive: true });
step('bundling core/binary/main.ts with esbuild');
const bundled = join(work, 'supervisor.js');
// The plugin API's declarations, generated from core/plugin-api/ (supervisor plugins types).
const { renderPluginTypes } = await import('./plugin-types.mjs');
// The built-in roles as the project's parser reads them: a run does not parse their YAML again.
const { parsedRoles } = await import('./pkg/parsed-roles.mjs');
const roles = await parsedRoles(root);
const extraAssets = { 'types/supervisor-plugin.d.ts': renderPluginTypes(root), [roles.asset]: roles.json };
const { assetCount, chunks } = await bundle({ root, entry: 'core/binary/main.ts', outfile: bundled, assetFolders: ['roles', 'prompts', 'schemas'], extraAssets });
// Entry chunks (a few KB, started on their own) are stored as they are: no zlib at their start.
const chunkAssets = Object.entries(chunks).map(([name, file]) => (name in ENTRY_CHUNKS ? `chunk-${name}.js=${file}` : `chunk-${name}.js.br=${file}`));
// o200k's rank table made here, so an exact count does not build it (nor load the ranks' chunk).
const { o200kTableAssets } = await import('./pkg/o200k-table.mjs');
const tableAssets = await o200kTableAssets(root, work);
step(`bundle: ${(statSync(bundled).size / 1024).toFixed(0)} KiB, ${assetCount} built-in assets inlined; lazy chunks: ${Object.entries(chunks).map(([name, file]) => `${name} ${(statSync(file).size / 1024).toFixed(0)} KiB`).join(', ') || 'none'}`);

// V8's code cache depends on what a run happened to compile, so its bytes vary from build to
// build; SUPERVISOR_REPRODUCIBLE=1 leaves it out for byte-identical binaries (slower start).
const reproducible = process.env.SUPERVISOR_REPRODUCIBLE === '1';
const appCache = join(work, 'supervisor.cache');
const runCache = join(work, 'supervisor-run.cache');
const seaMain = join(toolchain, 'sea-main.cjs');
// The warm run's fake CLI is a shell script: on a Windows host the run's cache is left out.
const warmRun = !reproducible && process.platform !== 'win32';
if (warmRun) {
  step('making the V8 code cache (warm runs of --help and of a run reviewer with the embedded Node)');
  const { warmRunPlace } = await import('./pkg/warm-run.mjs');
  const warmDir = join(work, 'warm-run');
  const warm = warmRunPlace(warmDir);
  const env = { ...process.env, HOME: warmDir, PATH: `${warm.bin}${delimiter}${process.env.PATH ?? ''}` };
  // Two caches of one compile: after --help (help, version: small, quick to load) and after the run too.
  await $({ cwd: work, env })`${hostNode.path} ${NODE_FLAGS} ${join(toolchain, 'code-cache.cjs')} ${bundled} ${appCache} --help --then-in ${warm.repo} ${runCache} ${warm.args}`;
  await fs.remove(warmDir);
} else if (!reproducible) {
  step('making the V8 code cache (a warm run of --help with the embedded Node)');
  await $({ cwd: work, env: { ...process.env, HOME: work } })`${hostNode.path} ${NODE_FLAGS} ${join(toolchain, 'code-cache.cjs')} ${bundled} ${appCache} --help`;
}

// pkg's SEA cache lives in a private HOME so the user's ~/.pkg-cache is neither read nor written.
const pkgHome = join(work, 'pkg-home');
const packScript = join(toolchain, 'pack.cjs');
// dist/ holds this build's binaries only: one left from an earlier build (another target list,
// older sources) would otherwise sit beside them as if current.
for (const target of clearBinaries(dist, TARGETS)) {
  if (!wanted.includes(target.id)) step(`removed ${outputName(target)}, left from an earlier build`);
}
const built = [];
for (const id of wanted) {
  const target = TARGETS.find((t) => t.id === id);
  const node = target === host ? hostNode : stockNode(target, work);
  if (!node.path) {
    console.error(chalk.yellow(`build: skipping ${id}: ${node.reason}`));
    continue;
  }
  const stripped = prepareSeaCache(target, node.path, pkgHome);
  const output = join(dist, outputName(target));
  step(`packing ${outputName(target)} (pkg --sea, Node ${NODE_VERSION}${stripped ? ', stripped' : ', not stripped: no strip tool for this target'})`);
  const env = { ...process.env, HOME: pkgHome, PKG_CACHE_PATH: join(pkgHome, '.pkg-cache') };
  // The code cache is made by, and valid for, the host's Node: cross targets go without.
  const chunkCaches = Object.keys(chunks).filter((name) => !CHUNKS_WITHOUT_CODE_CACHE.includes(name)).map((name) => `chunk-${name}.cache=${join(work, `chunk-${name}.cache`)}`);
  const native = target === host && !reproducible ? [`supervisor.cache=${appCache}`, ...(warmRun ? [`supervisor-run.cache=${runCache}`] : []), ...chunkCaches, '--code-cache'] : [];
  await $({ env })`${hostNode.path} ${packScript} ${seaMain} ${pkgTarget(target)} ${output} supervisor.js=${bundled} ${chunkAssets} ${tableAssets} ${native} ${NODE_FLAGS.map((f) => `--exec-argv=${f}`)}`;
  built.push(output);
}

// The host's binary, when this build made it, must run and tell its version.
const hostOutput = join(dist, outputName(host));
if (built.includes(hostOutput)) {
  const checked = await $({ env: { ...process.env, SUPERVISOR_CODE_CACHE_CHECK: '1' } })`${hostOutput} --version`;
  const version = checked.stdout.trim();
  if (!reproducible && !checked.stderr.includes('code cache: accepted')) console.error(chalk.yellow(`build: the code cache was not used (${checked.stderr.trim()}): start-up will be slower`));
  const expected = /VERSION = '([^']+)'/.exec(readFileSync(join(root, 'core', 'version.ts'), 'utf8'))?.[1];
  if (version !== expected) throw new Error(`The built binary says "${version}" for --version, expected "${expected}"`);
}

writeChecksums(dist);
await fs.remove(join(work, 'pkg-home', '.pkg-cache', 'sea'));
for (const file of built) step(`${file.slice(root.length)}: ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`);
step('done');
