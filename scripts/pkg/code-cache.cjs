// Makes the V8 code cache for the binary's app: compiles the wrapped bundle exactly as
// sea-main.cjs does, runs it once with the given arguments (e.g. --help) so the functions a
// start needs get compiled, and writes the cache when the process exits. Run by the embedded
// Node itself (the cache is only valid for the same V8 version and flags):
//
//   node code-cache.cjs <wrapped-bundle.js> <out.cache> [app arguments...]
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');

const [wrapped, out, ...appArgs] = process.argv.slice(2);
const source = readFileSync(wrapped, 'utf8');
const script = new Script(source, { filename: 'supervisor.js' });
process.argv = [process.execPath, process.execPath, ...appArgs];
process.on('exit', () => writeFileSync(out, script.createCachedData()));
script.runInThisContext()(exports, require, module, process.execPath, __dirname);
