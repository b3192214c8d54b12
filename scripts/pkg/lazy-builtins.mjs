// Node built-ins such as child_process, crypto and fs/promises cost milliseconds each to load,
// and the bundle's modules import them at the top even when this command never calls them.
// esbuild turns a named import into `x = require("node:crypto")` and uses it as `x.name` at
// call time, so such a require can become a proxy that loads the module on first use.
// Namespace/default imports (wrapped in __toESM) and destructuring requires are left alone.

export const LAZY_BUILTINS = ['child_process', 'crypto', 'fs/promises', 'readline', 'stream/promises', 'worker_threads', 'zlib', 'http', 'https', 'dns', 'timers/promises'];

export const LAZY_REQUIRE_HELPER = `function __supervisorLazyRequire(id) {
  let loaded;
  const real = () => (loaded ??= require(id));
  return new Proxy({}, {
    get: (_, key) => real()[key],
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}`;

/** Rewrites `name = require("node:<lazy builtin>")` in an unminified esbuild bundle. */
export function makeBuiltinsLazy(code) {
  const ids = LAZY_BUILTINS.map((id) => id.replace('/', '\\/')).join('|');
  const pattern = new RegExp(`(\\b[\\w$]+ = )require\\("((?:node:)?(?:${ids}))"\\)`, 'g');
  let count = 0;
  const rewritten = code.replace(pattern, (_, assign, id) => {
    count++;
    return `${assign}__supervisorLazyRequire("${id}")`;
  });
  return { code: rewritten, count };
}

/**
 * makeBuiltinsLazy for the build: a bundle in which nothing was rewritten means esbuild's output
 * no longer looks like the pattern, and start-up would silently get slower. Returns the code.
 */
export function makeBuiltinsLazyOrFail(code) {
  const { code: rewritten, count } = makeBuiltinsLazy(code);
  if (count === 0) throw new Error('bundle: no require of a lazy built-in was rewritten; check makeBuiltinsLazy against this esbuild\'s output');
  return rewritten;
}
