/**
 * What a role file of an untrusted repository may not do (its gates are refused in prepare.ts):
 * - lower the sandbox the user chose: the same role as the user's own folders define it (home,
 *   built-in) with the user's flags is the floor; another sandbox, a more open network, more
 *   hosts, more of the caller's variables (`env`), larger limits or other plugin options from the
 *   repository's file are refused;
 * - set `flags` (CLI arguments such as --dangerously-skip-permissions or an --mcp-config);
 * - point `x-replay` outside the repository (it would read any file into a run);
 * - set `allowed_commands` (what the CLI may run);
 * - weaken what keeps secrets out of the prompt (SECURITY I5): `context.secret_scan`,
 *   `default_ignores` or `gitignore` false, or `always_include` of a file the default ignores,
 *   git ignores, or that looks like a secret (`.env*`).
 * Each is refused before anything runs, naming the file, like the gates. A setting the user's
 * own role of that name has too is the user's, not the repository's.
 */
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isDefaultIgnored } from '../files/default-ignores.ts';
import { gitignoredAmong } from '../context/gitignored.ts';
import type { Role } from '../roles/role.ts';
import { chooseSandbox, type SandboxChoice } from '../sandbox/policy.ts';
import { trustErrors } from './errors.ts';

export interface UntrustedRoleCheck {
  role: Role;
  repoRoot: string;
  trusted: boolean;
  /** The same role as the user's own folders define it, or null when they have none of that name. */
  userRole: () => Promise<Role | null>;
  /** --sandbox and --allow-host, as the run got them. */
  flag?: string | Record<string, unknown>;
  allowHosts?: string[];
  /** The environment git runs with (to ask which files git ignores). */
  env?: Record<string, string | undefined>;
}

/** A path that looks like it holds secrets whatever the scan says: `.env`, `.env.local`, `prod.env`. */
const SECRET_LOOKING = /(^|\/)\.env|\.env$/i;

/**
 * How the role's context lets secrets into the prompt beyond what the user's own role of that
 * name does, one phrase each (empty: it does not). SECURITY I5.
 */
async function contextWeakening(role: Role, user: Role | null, repoRoot: string, env: Record<string, string | undefined>): Promise<string[]> {
  const mine = user?.context ?? {};
  const theirs = role.context;
  const weakened: string[] = [];
  for (const key of ['secret_scan', 'default_ignores', 'gitignore'] as const) {
    if (theirs[key] === false && mine[key] !== false) weakened.push(`${key}: false`);
  }
  const own = new Set(mine.always_include ?? []);
  const added = (theirs.always_include ?? []).filter((path) => !own.has(path));
  const exact = added.filter((path) => !/[*?[\]{}!]/.test(path)).map((path) => path.replace(/^\.\//, ''));
  const ignored = await gitignoredAmong(repoRoot, exact, env).catch(() => new Set<string>());
  const risky = added.filter((path) => SECRET_LOOKING.test(path) || isDefaultIgnored(path.replace(/^\.\//, '')) || ignored.has(path.replace(/^\.\//, '')));
  if (risky.length) weakened.push(`always_include ${risky.map((p) => JSON.stringify(p)).join(', ')}: ignored by default or by git, or named like a secret`);
  return weakened;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isInside(file: string, root: string): boolean {
  const rel = relative(real(root), real(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Entries looked at in an x-replay folder at most: past this the folder is refused rather than half checked. */
const MAX_REPLAY_ENTRIES = 5000;

/** The first path under `dir` (a folder the replay adapter reads) that leads outside `root`, if any. */
function escapeIn(dir: string, root: string): string | null {
  const queue = [dir];
  let seen = 0;
  while (queue.length) {
    const current = queue.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > MAX_REPLAY_ENTRIES) return `${dir} (more than ${MAX_REPLAY_ENTRIES} entries)`;
      const path = join(current, entry.name);
      if (entry.isSymbolicLink() && !isInside(path, root)) return path;
      if (entry.isDirectory()) queue.push(path);
    }
  }
  return null;
}

const NETWORK_RANK = { none: 0, allow: 1, open: 2 } as const;

/** How `theirs` is weaker than `mine`, one phrase per difference; empty when it is not. */
export function sandboxLowering(mine: SandboxChoice, theirs: SandboxChoice): string[] {
  if (mine.name === 'none') return [];
  if (theirs.name !== mine.name) return [`sandbox ${mine.name} replaced by ${theirs.name}`];
  const lowered: string[] = [];
  if (NETWORK_RANK[theirs.network] > NETWORK_RANK[mine.network]) lowered.push(`network ${mine.network} → ${theirs.network}`);
  if (NETWORK_RANK[theirs.gateNetwork] > NETWORK_RANK[mine.gateNetwork]) lowered.push(`gate_network ${mine.gateNetwork} → ${theirs.gateNetwork}`);
  const extra = theirs.allow.filter((host) => !mine.allow.includes(host));
  if (extra.length && theirs.network === 'allow') lowered.push(`allow ${extra.join(', ')}`);
  if (theirs.adapterHosts && !mine.adapterHosts) lowered.push('adapter_hosts false → true');
  // More of the caller's variables inside (a repository naming AWS_* would carry keys into the sandbox).
  const extraEnv = theirs.env.filter((name) => !mine.env.includes(name));
  if (extraEnv.length) lowered.push(`env ${extraEnv.join(', ')}`);
  for (const key of ['pids', 'memoryMb', 'cpus'] as const) {
    if (theirs.limits[key] > mine.limits[key]) lowered.push(`${key} ${mine.limits[key]} → ${theirs.limits[key]}`);
  }
  const keys = new Set([...Object.keys(mine.options), ...Object.keys(theirs.options)]);
  for (const key of keys) if (JSON.stringify(mine.options[key]) !== JSON.stringify(theirs.options[key])) lowered.push(`${key} changed`);
  return lowered;
}

/** Throws ROLE_UNTRUSTED_FLAGS, ROLE_UNTRUSTED_REPLAY or ROLE_UNTRUSTED_SANDBOX for what the repository's role file may not do. */
export async function refuseUntrustedRole(check: UntrustedRoleCheck): Promise<void> {
  const { role, repoRoot } = check;
  if (check.trusted) return;
  const fromRepo = (field: string): string | null => {
    const file = role.sources[field];
    return file && isInside(file, repoRoot) ? file : null;
  };
  const flagsFile = fromRepo('flags');
  if (flagsFile && role.flags.length) throw trustErrors.untrustedRole('ROLE_UNTRUSTED_FLAGS', role.name, flagsFile, `sets CLI flags (${role.flags.map((f) => JSON.stringify(f)).join(' ')})`, repoRoot);
  const replayFile = fromRepo('x-replay');
  const replay = role.extensions['x-replay'];
  if (replayFile && typeof replay === 'string') {
    const target = isAbsolute(replay) ? replay : resolve(dirname(replayFile), replay);
    if (!isInside(target, repoRoot)) throw trustErrors.untrustedRole('ROLE_UNTRUSTED_REPLAY', role.name, replayFile, `reads x-replay from ${target}, outside the repository`, repoRoot);
    const escape = statSync(target, { throwIfNoEntry: false })?.isDirectory() ? escapeIn(target, repoRoot) : null;
    if (escape) throw trustErrors.untrustedRole('ROLE_UNTRUSTED_REPLAY', role.name, replayFile, `reads x-replay from ${target}, where ${escape} leads outside the repository`, repoRoot);
  }
  let loaded: Promise<Role | null> | undefined;
  const userRole = () => (loaded ??= check.userRole());
  const commandsFile = fromRepo('allowed_commands');
  const ownCommands = new Set(commandsFile ? ((await userRole())?.allowed_commands ?? []) : []);
  const theirCommands = role.allowed_commands.filter((c) => !ownCommands.has(c));
  // SECURITY I4: what the CLI may run is the user's to choose.
  if (commandsFile && theirCommands.length) throw trustErrors.untrustedRole('ROLE_UNTRUSTED_COMMANDS', role.name, commandsFile, `sets allowed_commands (${theirCommands.map((c) => JSON.stringify(c)).join(', ')})`, repoRoot);
  const contextFile = fromRepo('context');
  const weakened = contextFile ? await contextWeakening(role, await userRole(), repoRoot, check.env ?? process.env) : [];
  if (contextFile && weakened.length) throw trustErrors.untrustedRole('ROLE_UNTRUSTED_CONTEXT', role.name, contextFile, `lets secrets into the prompt (${weakened.join('; ')})`, repoRoot);
  const sandboxFile = fromRepo('sandbox');
  if (!sandboxFile) return;
  const user = await userRole();
  const choose = (sandbox: unknown) => chooseSandbox({ role: sandbox ?? undefined, ...(check.flag === undefined ? {} : { flag: check.flag }), allowHosts: check.allowHosts ?? [] });
  const lowered = sandboxLowering(choose(user?.sandbox), choose(role.sandbox));
  if (lowered.length) throw trustErrors.untrustedRole('ROLE_UNTRUSTED_SANDBOX', role.name, sandboxFile, `lowers the sandbox you chose (${lowered.join('; ')})`, repoRoot);
}
