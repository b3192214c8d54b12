// Makes the V8 code cache for the binary's app: compiles the wrapped bundle exactly as
// sea-main.cjs does, runs it once with the given arguments (e.g. --help) so the functions a
// start needs get compiled, and writes the cache when the process exits. Run by the embedded
// Node itself (the cache is only valid for the same V8 version and flags):
//
//   node code-cache.cjs <wrapped-bundle.js> <out.cache> [app arguments...] [--then-in <dir> <out2.cache> <app arguments...>]
//
// With --then-in, <out.cache> is written when the first run has finished, and the app runs a
// second time in <dir> with the arguments after <out2.cache> (the same compiled script, fresh
// module state); <out2.cache> is written at exit and holds what both runs compiled (a `run`
// then finds its functions compiled instead of compiling them on every start). A failing run
// fails this script.
//
// Lazy chunks are read from chunks/<name>.js beside the bundle; their caches are written to
// chunk-<name>.cache beside <out.cache>.
'use strict';
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const [wrapped, out, ...allArgs] = process.argv.slice(2);
const then = allArgs.indexOf('--then-in');
const appArgs = then < 0 ? allArgs : allArgs.slice(0, then);
const second = then < 0 ? undefined : { dir: allArgs[then + 1], out: allArgs[then + 2], args: allArgs.slice(then + 3) };

function runModule(source, filename) {
  const script = new Script(source, { filename });
  const mod = { exports: {} };
  const body = script.runInThisContext();
  body(mod.exports, require, mod, process.execPath, __dirname);
  return { script, body, exports: mod.exports };
}

const chunkFile = (name) => join(dirname(wrapped), 'chunks', `${name}.js`);
globalThis.__supervisorLoadChunk = (name) => runModule(readFileSync(chunkFile(name), 'utf8'), `${name}.js`).exports;
process.argv = [process.execPath, process.execPath, ...appArgs];
const { script, body } = runModule(readFileSync(wrapped, 'utf8'), 'supervisor.js');
if (second) {
  // When the first run has drained the event loop: the app's module body once more, fresh state.
  process.once('beforeExit', () => {
    if ((process.exitCode ?? 0) !== 0) return;
    writeFileSync(out, script.createCachedData());
    process.chdir(second.dir);
    process.argv = [process.execPath, process.execPath, ...second.args];
    const mod = { exports: {} };
    body(mod.exports, require, mod, process.execPath, __dirname);
  });
}
// Each lazy chunk gets a cache of its own, chunk-<name>.cache beside `out`, made after running
// it once: V8 then skips parsing it (CHUNKS_WITHOUT_CODE_CACHE in bundle.mjs ship without).
const chunks = readdirSync(join(dirname(wrapped), 'chunks')).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3));
const chunkScripts = chunks.map((name) => [name, runModule(readFileSync(chunkFile(name), 'utf8'), `${name}.js`).script]);
process.on('exit', () => {
  writeFileSync(second ? second.out : out, script.createCachedData());
  for (const [name, chunk] of chunkScripts) writeFileSync(join(dirname(out), `chunk-${name}.cache`), chunk.createCachedData());
});
