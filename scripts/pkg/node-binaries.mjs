// The stock Node executable of each target, from the pinned npm packages (never nodejs.org),
// laid out where pkg's SEA mode looks before it would download anything.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_VERSION } from './targets.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const lock = JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8'));

function run(bin, args, options = {}) {
  const result = spawnSync(bin, args, { encoding: 'utf8', ...options });
  return { ok: result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? (result.error?.message ?? '') };
}

/** The lock file's integrity for a node-* package: the one tarball we accept. */
function lockedIntegrity(name) {
  const entry = lock.packages?.[`node_modules/${name}`];
  if (!entry?.integrity || entry.version !== NODE_VERSION) throw new Error(`scripts/pkg/package-lock.json has no ${name}@${NODE_VERSION}`);
  return entry.integrity;
}

/**
 * The target's node executable installed by npm ci under `modules`, only at NODE_VERSION: after a
 * NODE_VERSION bump an older install must not be packed. Undefined otherwise.
 */
export function installedStockNode(target, modules = join(here, 'node_modules')) {
  const exe = join(modules, target.npm, target.exe);
  let version;
  try {
    version = JSON.parse(readFileSync(join(modules, target.npm, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
  return version === NODE_VERSION && existsSync(exe) ? exe : undefined;
}

function integrityOf(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/**
 * Path of the target's stock node executable. The host's package is installed by npm ci; other
 * platforms' packages are skipped by npm (os/cpu), so they are fetched with `npm pack` through
 * the npm registry and checked against the lock file's integrity. Returns undefined (and the
 * reason) when the registry cannot provide it.
 */
export function stockNode(target, workDir) {
  const installed = installedStockNode(target);
  if (installed) return { path: installed };
  const dir = join(workDir, `${target.npm}-${NODE_VERSION}`);
  const exe = join(dir, 'package', target.exe);
  if (existsSync(`${exe}.ok`)) return { path: exe };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const packed = run('npm', ['pack', `${target.npm}@${NODE_VERSION}`, '--pack-destination', dir, '--silent'], { cwd: dir });
  if (!packed.ok) return { reason: `npm pack ${target.npm}@${NODE_VERSION} failed: ${packed.stderr.trim().split('\n').pop()}` };
  const tarball = join(dir, `${target.npm}-${NODE_VERSION}.tgz`);
  const expected = lockedIntegrity(target.npm);
  if (integrityOf(tarball) !== expected) return { reason: `${target.npm}@${NODE_VERSION}: tarball integrity differs from the lock file` };
  const extracted = run('tar', ['-xzf', tarball, '-C', dir, `package/${target.exe}`]);
  if (!extracted.ok) return { reason: `cannot unpack ${tarball}: ${extracted.stderr.trim()}` };
  rmSync(tarball);
  writeFileSync(`${exe}.ok`, '');
  return { path: exe };
}

/** Strips symbols with the first strip tool that reads this target's format; false if none did. */
function strip(target, from, to) {
  for (const tool of target.strip) {
    if (run(tool, ['-o', to, from]).ok) return true;
  }
  copyFileSync(from, to);
  return false;
}

/**
 * Fills pkg's SEA cache under `<home>/.pkg-cache/sea/` for one target, so pkg finds a verified
 * archive (the `.ok` sentinel) and an already-extracted node (its own `.ok` sentinel) and never
 * downloads. The node placed there is stripped: stripping must happen before injection
 * (stripping the finished binary breaks it). Returns whether it was stripped.
 */
export function prepareSeaCache(target, nodePath, home) {
  const cache = join(home, '.pkg-cache', 'sea');
  const base = `node-v${NODE_VERSION}-${target.os}-${target.arch}`;
  const archive = join(cache, `${base}.${target.os === 'win' ? 'zip' : 'tar.gz'}`);
  const extracted = target.os === 'win' ? join(cache, `${base}.exe`) : join(cache, base, 'bin', 'node');
  mkdirSync(join(extracted, '..'), { recursive: true });
  rmSync(`${extracted}.ok`, { force: true });
  const stripped = strip(target, nodePath, extracted);
  chmodSync(extracted, 0o755);
  // pkg only checks that the archive and its sentinel exist before it trusts the extracted node.
  writeFileSync(archive, '');
  writeFileSync(`${archive}.ok`, '');
  writeFileSync(`${extracted}.ok`, '');
  return stripped;
}
