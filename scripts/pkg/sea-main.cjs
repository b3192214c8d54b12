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

// Chunks are stored brotli-compressed (the tokenizer table shrinks from 2.7 MB to well under 1 MB).
globalThis.__supervisorLoadChunk = (name) => {
  const source = require('node:zlib').brotliDecompressSync(Buffer.from(getRawAsset(`chunk-${name}.js.br`))).toString('utf8');
  return runModule(source, `${name}.js`).exports;
};

let cachedData;
try {
  cachedData = Buffer.from(getRawAsset('supervisor.cache'));
} catch {
  cachedData = undefined; // cross-built targets ship without a cache
}
const { script } = runModule(getAsset('supervisor.js', 'utf8'), 'supervisor.js', cachedData);
if (process.env.SUPERVISOR_CODE_CACHE_CHECK === '1') {
  process.stderr.write(`code cache: ${cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'none'}\n`);
}
