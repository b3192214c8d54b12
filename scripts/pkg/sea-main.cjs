// The SEA main script of the binary: a small loader. The app (the esbuild bundle) is a SEA
// asset, compiled here with V8's code cache made at build time after a warm run (see
// code-cache.cjs), so the functions that --help, --version and argument parsing need start
// compiled instead of being parsed and compiled on every start. Big lazily imported modules
// are assets of their own ("chunk-<name>.js"), evaluated on first import.
'use strict';
const { getAsset, getRawAsset } = require('node:sea');
const { Script } = require('node:vm');
const { dirname } = require('node:path');

function runModule(source, filename, cachedData) {
  const script = new Script(source, { filename, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, require, mod, process.execPath, dirname(process.execPath));
  return { script, exports: mod.exports };
}

// Chunks are stored brotli-compressed (the tokenizer table shrinks from 2.7 MB to well under 1 MB),
// but for the small entry chunks (ENTRY_CHUNKS: the bridge), stored as they are: loading zlib
// costs a start ~9 ms. Each has its V8 code cache beside it (chunk-<name>.cache), where the build made one.
globalThis.__supervisorLoadChunk = (name) => {
  const plain = rawAsset(`chunk-${name}.js`);
  const source = plain ? plain.toString('utf8') : require('node:zlib').brotliDecompressSync(Buffer.from(getRawAsset(`chunk-${name}.js.br`))).toString('utf8');
  const cache = rawAsset(`chunk-${name}.cache`);
  const { script, exports } = runModule(source, `${name}.js`, cache);
  if (process.env.SUPERVISOR_CODE_CACHE_CHECK === '1') process.stderr.write(`chunk ${name} code cache: ${cache ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'none'}\n`);
  return exports;
};

function rawAsset(name) {
  try {
    return Buffer.from(getRawAsset(name));
  } catch {
    return undefined; // cross-built targets ship without code caches
  }
}

/**
 * The app: the bundle with a code cache. Help and version get the cache made after a warm
 * --help; every other command the one made after a warm `run` too (twice the size: ~12 ms more
 * to load, ~100 ms less compiling on a run).
 */
function runApp() {
  const argv = process.argv.slice(2);
  const light = argv.length === 0 || argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version');
  let name = light ? 'supervisor.cache' : 'supervisor-run.cache';
  let cachedData = rawAsset(name);
  if (!cachedData && !light) cachedData = rawAsset((name = 'supervisor.cache')); // a build without the warm run
  const { script } = runModule(getAsset('supervisor.js', 'utf8'), 'supervisor.js', cachedData);
  if (process.env.SUPERVISOR_CODE_CACHE_CHECK === '1') {
    process.stderr.write(`code cache: ${cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'none'} (${name})\n`);
  }
}

// The network bridge starts on every sandboxed attempt and needs none of the app: its own
// small chunk (ENTRY_CHUNKS in bundle.mjs) instead of the bundle, ~30 ms less per attempt.
if (process.argv[2] === '__bridge') globalThis.__supervisorLoadChunk('bridge').bridgeMain(process.argv.slice(3));
else runApp();
