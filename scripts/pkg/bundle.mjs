// Bundles the binary's entry (core/binary/main.ts) into one CommonJS file for pkg's SEA mode,
// with the built-in roles/, prompts/ and schemas/ inlined as strings.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { LAZY_REQUIRE_HELPER, makeBuiltinsLazyOrFail } from './lazy-builtins.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const shim = (name) => join(here, 'shims', name);

/** Every file under the asset folders, by project-relative path with "/" separators, sorted. */
export function collectAssets(root, folders) {
  const assets = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) assets[relative(root, path).split(sep).join('/')] = readFileSync(path, 'utf8');
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return assets;
}

/**
 * Big modules the app only imports lazily (import()), by specifier → chunk name. Each is
 * bundled on its own and shipped as a separate SEA asset that sea-main.cjs evaluates on first
 * import, so every start does not read and decode megabytes it never runs (gpt-tokenizer's
 * o200k table is ~2 MB of the bundle, and a count in the binary uses the table the build made
 * from it instead, o200k-table.mjs; the MCP SDK with zod ~700 KB, for `supervisor mcp` only).
 * A relative specifier is a project file (from the root), matched by the file it resolves to;
 * it must import only packages, never core modules (their state would be duplicated).
 */
export const LAZY_CHUNKS = { 'gpt-tokenizer/bpeRanks/o200k_base': 'o200k_ranks', './core/mcp/sdk.ts': 'mcp_sdk' };

/**
 * Chunks shipped without a V8 code cache: `supervisor mcp` starts once per agent session, so
 * the SDK's cache (~0.7 MiB, mostly zod's eagerly built schemas) is not worth its bytes; the
 * o200k ranks are two string literals (packedRanks below), nothing to compile.
 */
export const CHUNKS_WITHOUT_CODE_CACHE = ['mcp_sdk', 'o200k_ranks'];

/**
 * Entries that sea-main.cjs runs INSTEAD of the app's bundle, by chunk name → project file:
 * hidden commands started once per sandboxed attempt, whose process needs none of the app.
 * Alone in their process, they may bundle core modules of their own (no state is shared).
 */
export const ENTRY_CHUNKS = { bridge: './core/binary/bridge-entry.ts' };

const lazyChunks = {
  name: 'supervisor-lazy-chunks',
  setup(build) {
    const root = build.initialOptions.absWorkingDir;
    const bare = Object.keys(LAZY_CHUNKS).filter((k) => !k.startsWith('.'));
    const files = new Map(Object.entries(LAZY_CHUNKS).filter(([k]) => k.startsWith('.')).map(([k, name]) => [resolve(root, k), name]));
    const filter = new RegExp(`^(${bare.map((k) => k.replace(/[/.]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: LAZY_CHUNKS[args.path], namespace: 'lazy-chunk' }));
    build.onResolve({ filter: /^\./ }, (args) => {
      const name = args.namespace === 'file' ? files.get(resolve(args.resolveDir, args.path)) : undefined;
      return name ? { path: name, namespace: 'lazy-chunk' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-chunk' }, (args) => ({
      contents: `module.exports = globalThis.__supervisorLoadChunk(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/** Wraps CommonJS code as a function of the module variables, the shape sea-main.cjs runs. */
function wrapModule(code) {
  return `(function (exports, require, module, __filename, __dirname) {${asciiOnly(code)}\n})`;
}

/**
 * gpt-tokenizer ships its 200k BPE ranks as an array literal of 200k strings (or byte arrays):
 * V8 takes ~0.4 s to compile and run that module, and a Map of 200k strings more. The binary
 * ships them packed instead, the form core/context/o200k-ranks.ts reads (`ranksFromModule`):
 * every token's bytes one after another and each one's length, both base64. The data is taken
 * from the library's module and unpacked again here: the build fails unless every token's bytes
 * come back the same.
 */
const packedRanks = {
  name: 'supervisor-packed-ranks',
  setup(build) {
    build.onLoad({ filter: /[\\/]gpt-tokenizer[\\/](?:cjs|esm)[\\/]bpeRanks[\\/][a-z0-9_]+\.js$/ }, async (args) => {
      const cjs = args.path.replace(/[\\/]esm[\\/]bpeRanks[\\/]/, `${sep}cjs${sep}bpeRanks${sep}`);
      const ranks = createRequire(import.meta.url)(cjs).default;
      const tokens = ranks.map((token) => Buffer.from(token));
      if (tokens.some((bytes) => bytes.length === 0 || bytes.length > 255)) throw new Error(`packed-ranks: ${args.path} has a token of 0 or over 255 bytes`);
      const value = { packedRanks: 1, bytes: Buffer.concat(tokens).toString('base64'), lengths: Buffer.from(tokens.map((t) => t.length)).toString('base64') };
      const bytes = Buffer.from(value.bytes, 'base64');
      const lengths = Buffer.from(value.lengths, 'base64');
      let at = 0;
      ranks.forEach((token, rank) => {
        if (!bytes.subarray(at, (at += lengths[rank])).equals(Buffer.from(token))) throw new Error(`packed-ranks: token ${rank} of ${args.path} does not survive packing`);
      });
      if (at !== bytes.length || lengths.length !== ranks.length) throw new Error(`packed-ranks: ${args.path} does not survive packing`);
      const code = JSON.stringify(value);
      return { contents: /[\\/]esm[\\/]/.test(args.path) ? `export default ${code};\n` : `exports.default = ${code};\n`, loader: 'js' };
    });
  },
};

async function buildChunks(root, outDir, minify) {
  const files = {};
  mkdirSync(outDir, { recursive: true });
  const entries = [...Object.entries(LAZY_CHUNKS), ...Object.entries(ENTRY_CHUNKS).map(([name, file]) => [file, name])];
  for (const [specifier, name] of entries) {
    const built = await esbuild.build({
      absWorkingDir: root,
      stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir: root, loader: 'js' },
      write: false,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node24',
      minify,
      legalComments: 'none',
      logLevel: 'warning',
      plugins: [packedRanks],
    });
    files[name] = join(outDir, `${name}.js`);
    writeFileSync(files[name], wrapModule(built.outputFiles[0].text));
  }
  return files;
}

/** Swaps start-up-heavy or disk-probing dependencies for the shims beside this file. */
const startupShims = {
  name: 'supervisor-startup-shims',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      if (args.importer !== shim('string-width.cjs')) return { path: shim('string-width.cjs') };
      const real = await build.resolve('string-width', { kind: 'import-statement', resolveDir: build.initialOptions.absWorkingDir, pluginData: 'real' });
      if (real.errors.length) return { errors: real.errors };
      return { path: real.path };
    });
    build.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      /[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer) ? { path: shim('yargs-assert.mjs') } : undefined,
    );
    build.onResolve({ filter: /^escalade\/sync$/ }, (args) =>
      /[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer) ? { path: shim('escalade-sync.mjs') } : undefined,
    );
    build.onLoad({ filter: /[\\/]y18n[\\/]build[\\/]lib[\\/]platform-shims[\\/]node\.js$/ }, () => ({
      contents: readFileSync(shim('y18n-node-shim.mjs'), 'utf8'),
      loader: 'js',
      resolveDir: join(here, 'shims'),
    }));
  },
};

/**
 * One non-ASCII character makes V8 hold the whole multi-megabyte source as UTF-16 (and Node
 * convert it at every start); escape the few esbuild leaves (in regular expressions).
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Builds `outfile` from the project at `root`: esbuild bundles (unminified, so the lazy-builtin
 * rewrite can read it), then one esbuild transform minifies; the output is wrapped for
 * sea-main.cjs. The LAZY_CHUNKS go to `chunks/<name>.js` beside it; returns their files by name.
 * Deterministic: same sources and pinned esbuild give the same bytes.
 */
export async function bundle({ root, entry, outfile, assetFolders, extraAssets = {}, minify = true }) {
  const assets = { ...collectAssets(root, assetFolders), ...extraAssets };
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'import.meta.url': 'importMetaUrl' },
    // import() of a built-in becomes require: the bundle runs through vm, whose import() has no loader.
    supported: { 'dynamic-import': false },
    inject: [shim('import-meta-url.mjs')],
    plugins: [startupShims, lazyChunks],
  });
  const lazy = makeBuiltinsLazyOrFail(result.outputFiles[0].text);
  const banner = `var SUPERVISOR_INLINED_ASSETS = ${JSON.stringify(assets)};\n${LAZY_REQUIRE_HELPER}\n`;
  const final = await esbuild.transform(banner + lazy, { loader: 'js', format: 'cjs', platform: 'node', target: 'node24', minify, legalComments: 'none' });
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, wrapModule(final.code));
  const chunks = await buildChunks(root, join(dirname(outfile), 'chunks'), minify);
  return { assetCount: Object.keys(assets).length, chunks };
}
