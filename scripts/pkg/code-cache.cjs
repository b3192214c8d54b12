// Makes the V8 code cache for the binary's app: compiles the wrapped bundle exactly as
// sea-main.cjs does, runs it once with the given arguments (e.g. --help) so the functions a
// start needs get compiled, and writes the cache when the process exits. Run by the embedded
// Node itself (the cache is only valid for the same V8 version and flags):
//
//   node code-cache.cjs <wrapped-bundle.js> <out.cache> [app arguments...]
//
// Lazy chunks are read from chunks/<name>.js beside the bundle.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const [wrapped, out, ...appArgs] = process.argv.slice(2);

function runModule(source, filename) {
  const script = new Script(source, { filename });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, require, mod, process.execPath, __dirname);
  return { script, exports: mod.exports };
}

globalThis.__supervisorLoadChunk = (name) => runModule(readFileSync(join(dirname(wrapped), 'chunks', `${name}.js`), 'utf8'), `${name}.js`).exports;
process.argv = [process.execPath, process.execPath, ...appArgs];
const { script } = runModule(readFileSync(wrapped, 'utf8'), 'supervisor.js');
process.on('exit', () => writeFileSync(out, script.createCachedData()));
