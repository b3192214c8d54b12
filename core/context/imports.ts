/**
 * `$TARGET_IMPORTS`: the files the targets import directly, when those are files of this
 * repository. TypeScript / JavaScript: relative specifiers of `import ... from`, `export ...
 * from`, bare `import "x"`, `require("x")` and `import("x")`, resolved with the usual
 * extensions and index files (also `./x.js` → `./x.ts`, as NodeNext projects write them).
 * Python: `from . import x`, `from .x import y`, `from ..pkg import z` relative to the target,
 * and `import pkg.mod` / `from pkg.mod import y` when `pkg` is a folder of the repository
 * (at its root or under `src/`). A regex scan, not a parser: a string that merely looks like
 * an import can add a file, and nothing outside the repository is ever resolved.
 */
import { stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { PathGuard } from './path-safety.ts';

const JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.d.ts'];
const JS_FILE = /\.(?:[cm]?[jt]sx?)$/;
const JS_PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"\n]+)['"]/g,
  /\bimport\s*['"]([^'"\n]+)['"]/g,
  /\b(?:require|import)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];
/** Rewritten extensions: what a compiled specifier may stand for in the source. */
const SOURCE_FOR: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

type Exists = (path: string) => Promise<boolean>;

function jsSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const pattern of JS_PATTERNS) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found.filter((s) => s.startsWith('./') || s.startsWith('../') || s === '.' || s === '..');
}

async function resolveJs(fromFile: string, specifier: string, exists: Exists): Promise<string | undefined> {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
  const candidates = [base, ...JS_EXTENSIONS.map((e) => base + e)];
  const ext = posix.extname(base);
  for (const source of SOURCE_FOR[ext] ?? []) candidates.push(base.slice(0, -ext.length) + source);
  candidates.push(...JS_EXTENSIONS.map((e) => `${base}/index${e}`));
  for (const candidate of candidates) if (await exists(candidate)) return candidate;
  return undefined;
}

interface PyImport {
  /** Leading dots: 0 for absolute imports. */
  level: number;
  /** Dotted module path after the dots ("" for `from . import x`). */
  module: string;
  /** Names after `import` in a `from` statement (may be submodules). */
  names: string[];
}

function pyImports(source: string): PyImport[] {
  const found: PyImport[] = [];
  for (const m of source.matchAll(/^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)/gm)) {
    const names = m[3]!.replace(/[()\\]/g, ' ').split(',').map((n) => n.trim().split(/\s+/)[0] ?? '').filter((n) => /^\w+$/.test(n));
    found.push({ level: m[1]!.length, module: m[2]!, names });
  }
  for (const m of source.matchAll(/^[ \t]*import[ \t]+([^\n#;]+)/gm)) {
    for (const item of m[1]!.split(',')) {
      const module = item.trim().split(/\s+/)[0] ?? '';
      if (/^\w+(?:\.\w+)*$/.test(module)) found.push({ level: 0, module, names: [] });
    }
  }
  return found;
}

async function pyModule(dir: string, dotted: string, exists: Exists): Promise<string | undefined> {
  const base = dotted ? posix.join(dir, ...dotted.split('.')) : dir;
  for (const candidate of [`${base}.py`, `${base}/__init__.py`]) if (await exists(candidate)) return candidate;
  return undefined;
}

async function resolvePy(fromFile: string, imp: PyImport, exists: Exists): Promise<string[]> {
  let roots: string[];
  if (imp.level > 0) {
    let dir = posix.dirname(fromFile);
    for (let i = 1; i < imp.level; i++) dir = posix.dirname(dir);
    roots = [dir];
  } else {
    roots = ['.', 'src'];
  }
  const out: string[] = [];
  for (const root of roots) {
    const module = imp.module ? await pyModule(root, imp.module, exists) : undefined;
    if (module) out.push(module);
    // `from . import x` / `from .pkg import sub`: the names may be submodules themselves.
    const packageDir = imp.module ? posix.join(root, ...imp.module.split('.')) : root;
    if (imp.level > 0 || module) {
      for (const name of imp.names) {
        const sub = await pyModule(packageDir, name, exists);
        if (sub) out.push(sub);
      }
    }
    if (out.length) break;
  }
  return out;
}

/** A target's repository-relative path and its text, read once by the caller. */
export interface TargetSource {
  path: string;
  content: string;
}

/** Direct imports of the targets that are files inside the repository, sorted, targets excluded. */
export async function resolveTargetImports(guard: PathGuard, targets: readonly TargetSource[]): Promise<string[]> {
  const known = new Map<string, boolean>();
  const exists: Exists = async (path) => {
    const rel = posix.normalize(path);
    if (rel === '..' || rel.startsWith('../') || posix.isAbsolute(rel)) return false;
    const cached = known.get(rel);
    if (cached !== undefined) return cached;
    // Most candidates do not exist: a stat answers those. A file that does is then resolved,
    // so one reached through a symlink out of the repository is not an import we pack.
    const isFile = await stat(join(guard.root, rel)).then((info) => info.isFile(), () => false);
    const ok = isFile && (await guard.resolve(rel).then(() => true, () => false));
    known.set(rel, ok);
    return ok;
  };

  const found = new Set<string>();
  for (const { path: target, content: source } of targets) {
    if (JS_FILE.test(target)) {
      for (const spec of jsSpecifiers(source)) {
        const file = await resolveJs(target, spec, exists);
        if (file) found.add(posix.normalize(file));
      }
    } else if (target.endsWith('.py') || target.endsWith('.pyi')) {
      for (const imp of pyImports(source)) for (const file of await resolvePy(target, imp, exists)) found.add(posix.normalize(file));
    }
  }
  const targetSet = new Set(targets.map((t) => t.path));
  return [...found].filter((f) => !targetSet.has(f)).sort();
}
