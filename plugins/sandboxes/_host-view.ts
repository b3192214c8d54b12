/**
 * The part of the host a bwrap sandbox shows, read-only: the toolchain (/usr, and /bin, /lib*,
 * /sbin as they are on the host: links into /usr, or folders), the /etc files programs need to
 * resolve names, users, certificates and time, and nothing else of the host's root. No /run,
 * /var, /home, /root, /srv, /mnt, /opt: whatever lives there (sockets, other homes, daemons'
 * state) is not in the sandbox. What a command needs beyond this (its install, its interpreter,
 * the PATH folders) is added by the caller (see _visible-paths.ts).
 */
import { closeSync, existsSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';

/** Folders of the toolchain: bound when they are folders, recreated when they are links (Nix's store where there is one). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/nix/store'];

/**
 * /etc entries a command may need: name resolution, users and groups (git, ssh, id), TLS
 * certificates (Debian, Fedora, Alpine, Arch layouts), time zone, the dynamic linker's cache,
 * Debian's alternatives (/usr/bin/awk and friends are links through /etc/alternatives), git's
 * system configuration. Not: shadow, ssh keys, sudoers, machine-id, environment, profile.
 */
export const ETC_ENTRIES = [
  'resolv.conf', 'hosts', 'host.conf', 'gai.conf', 'nsswitch.conf', 'services', 'protocols', 'networks',
  'passwd', 'group', 'localtime', 'timezone', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'alternatives',
  'ssl', 'ca-certificates', 'ca-certificates.conf', 'pki', 'crypto-policies', 'os-release', 'gitconfig', 'mime.types', 'inputrc',
].map((name) => `/etc/${name}`);

/**
 * The /etc a Node program that resolves no names, users or certificates needs (the network
 * holder's bridge): the dynamic linker's cache. Each bound file is a mount and a read of the
 * mount table for bwrap, ~0.2 ms apiece on the holder's way to listening.
 */
export const LINKER_ETC_ENTRIES = ['/etc/ld.so.cache'];

/** bwrap arguments for the host's toolchain and the given /etc entries (those that exist here). */
export function hostViewArgs(etcEntries: readonly string[] = ETC_ENTRIES): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const found = lstatSync(dir, { throwIfNoEntry: false });
    if (!found) continue;
    if (found.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (found.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  for (const entry of etcEntries) {
    // A link (resolv.conf into /run/systemd, localtime into /usr/share/zoneinfo) is bound as what it
    // points to, so it still resolves where its target's folder is not shown.
    const target = resolved(entry);
    if (target) args.push('--ro-bind', target, entry);
  }
  return args;
}

/** The start of a file (a native CLI may be 200 MB: never read whole), or '' when it cannot be read. */
function firstBytes(file: string, count: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(count);
    return buffer.subarray(0, readSync(fd, buffer, 0, count, 0)).toString('latin1');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function resolved(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The interpreter a script names on its `#!` line, as an absolute path: `#!/usr/bin/env node`
 * (also `env -S node --flag`) is looked up with `which`, `#!/path/to/node` is taken as it is.
 * Undefined for a binary, or when it cannot be read or found.
 */
export function interpreterOf(file: string, which: (bin: string) => string | null): string | undefined {
  const head = firstBytes(file, 256);
  if (!head.startsWith('#!')) return undefined;
  const words = head.slice(2).split('\n')[0]!.trim().split(/\s+/);
  const [program, ...rest] = words;
  if (!program || !isAbsolute(program)) return undefined;
  if (!/(^|\/)env$/.test(program)) return existsSync(program) ? program : undefined;
  const name = rest.find((word) => !word.startsWith('-') && !word.includes('='));
  if (!name) return undefined;
  return isAbsolute(name) ? name : (which(name) ?? undefined);
}
