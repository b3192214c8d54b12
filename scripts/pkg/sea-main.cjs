// The SEA main script of the binary: a small loader. The app (the esbuild bundle) is a SEA
// asset, compiled here with V8's code cache made at build time after a warm run (see
// code-cache.cjs), so the functions that --help, --version and argument parsing need start
// compiled instead of being parsed and compiled on every start.
'use strict';
const { getAsset, getRawAsset } = require('node:sea');
const { Script } = require('node:vm');

const source = getAsset('supervisor.js', 'utf8');
let cachedData;
try {
  cachedData = Buffer.from(getRawAsset('supervisor.cache'));
} catch {
  cachedData = undefined; // cross-built targets ship without a cache
}
const script = new Script(source, { filename: 'supervisor.js', cachedData });
if (process.env.SUPERVISOR_CODE_CACHE_CHECK === '1') {
  process.stderr.write(`code cache: ${cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'none'}\n`);
}
script.runInThisContext()(exports, require, module, process.execPath, require('node:path').dirname(process.execPath));
