/**
 * The sandbox a run uses and the policy each of its processes gets: the role's `sandbox`
 * mapping, then the flags (--sandbox, --allow-host), then the adapter's declared needs.
 * Keys the core reads: name, network, gate_network, allow, adapter_hosts, pids, memory_mb, cpus, env; the rest
 * (image, read_only, ...) is the sandbox plugin's own and reaches it as `policy.options`.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { AdapterAccess, NetworkMode, SandboxPolicy } from '../plugin-api/contracts.ts';
import { checkEnvNames } from './env-allowlist.ts';
import { sandboxErrors } from './errors.ts';
import { baseUrlHostPort, formatHostPort, parseHostPort } from './host-port.ts';

export const DEFAULT_SANDBOX = 'none';
/** The floor of the Python Supervisor's container limits; roles may set their own. */
export const DEFAULT_LIMITS = { pids: 512, memoryMb: 4096, cpus: 2 } as const;
const CORE_KEYS = new Set(['name', 'network', 'gate_network', 'allow', 'adapter_hosts', 'pids', 'memory_mb', 'cpus', 'env']);
const NETWORK_MODES: readonly NetworkMode[] = ['none', 'allow', 'open'];

/** The sandbox of a run, settled once: its name and the role's mapping merged with the flags. */
export interface SandboxChoice {
  name: string;
  network: NetworkMode;
  gateNetwork: NetworkMode;
  /** Allowed host:port entries from the role and --allow-host (the adapter's are added per CLI). */
  allow: string[];
  /** Whether the adapter's declared hosts and base URLs are allowed too (`adapter_hosts: false`: only `allow`). */
  adapterHosts: boolean;
  limits: SandboxPolicy['limits'];
  /** Variables of the caller's the sandboxed processes may see, from the role's `env` and --pass-env (see env-allowlist.ts). */
  env: string[];
  options: Record<string, unknown>;
}

export interface ChoiceInput {
  /** The role's `sandbox` (a name or a mapping), when it has one. */
  role?: unknown;
  /** --sandbox: a name or a mapping (the workflow engine passes one through). */
  flag?: string | Record<string, unknown>;
  /** --allow-host entries. */
  allowHosts?: string[];
  /** --pass-env names. */
  passEnv?: string[];
}

export function chooseSandbox(input: ChoiceInput): SandboxChoice {
  const role = asMapping(input.role);
  const flag = asMapping(input.flag);
  // A different sandbox named on the command line takes none of the role's runtime options.
  const merged = flag.name !== undefined && role.name !== undefined && flag.name !== role.name ? { ...flag } : { ...role, ...flag };
  const name = merged.name ?? DEFAULT_SANDBOX;
  if (typeof name !== 'string' || !/^[a-zA-Z][a-zA-Z0-9_-]*$/.test(name)) throw sandboxErrors.badOption('name', name, 'a sandbox plugin name');
  const allow = [...list(merged.allow, 'allow'), ...list(input.allowHosts ?? [], 'allow')].map((entry) => normalise(entry));
  const network = mode(merged.network, 'network', 'allow');
  return {
    name,
    network,
    gateNetwork: mode(merged.gate_network, 'gate_network', 'none'),
    allow: [...new Set(allow)],
    adapterHosts: bool(merged.adapter_hosts, 'adapter_hosts', true),
    env: [...new Set([...checkEnvNames(merged.env, 'env'), ...checkEnvNames(input.passEnv ?? [], 'env')])],
    limits: {
      pids: count(merged.pids, 'pids', DEFAULT_LIMITS.pids),
      memoryMb: count(merged.memory_mb, 'memory_mb', DEFAULT_LIMITS.memoryMb),
      cpus: count(merged.cpus, 'cpus', DEFAULT_LIMITS.cpus),
    },
    options: Object.fromEntries(Object.entries(merged).filter(([key]) => !CORE_KEYS.has(key))),
  };
}

/**
 * The CLI's policy: the choice plus what the adapter declares (its hosts, base URLs,
 * configuration, variables) and the variables its command sets (`commandEnv`: names).
 */
export function cliPolicy(choice: SandboxChoice, access: AdapterAccess | undefined, env: Record<string, string | undefined>, homeDir: string, commandEnv: string[] = []): SandboxPolicy {
  const allow = [...choice.allow];
  const hosts = choice.adapterHosts ? access : undefined;
  for (const entry of hosts?.hosts ?? []) allow.push(normalise(entry));
  for (const name of hosts?.baseUrlEnv ?? []) {
    const value = env[name];
    const target = value ? baseUrlHostPort(value) : undefined;
    if (target) allow.push(formatHostPort(target));
  }
  const config = (access?.config ?? [])
    .map((entry) => {
      const moved = entry.env ? env[entry.env] : undefined;
      const path = moved ? (entry.under ? join(moved, entry.under) : moved) : entry.path;
      return { path: resolveConfigPath(path, homeDir), mode: entry.mode ?? ('copy' as const) };
    })
    // A "configuration" that is the home or holds it would show the whole home: never granted.
    .filter((entry) => !isWithin(homeDir, entry.path));
  const names = [...choice.env, ...(access?.env ?? []), ...(access?.baseUrlEnv ?? []), ...commandEnv];
  return { network: choice.network, allow: [...new Set(allow)], config, env: [...new Set(names)], limits: choice.limits, options: choice.options };
}

/** A gate's policy: no configuration or variables of the CLI's, and no network unless the role says otherwise. */
export function gatePolicy(choice: SandboxChoice): SandboxPolicy {
  return { network: choice.gateNetwork, allow: choice.gateNetwork === 'allow' ? [...choice.allow] : [], config: [], env: [...choice.env], limits: choice.limits, options: choice.options };
}

function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function resolveConfigPath(path: string, homeDir: string): string {
  if (path === '~') return homeDir || homedir();
  if (path.startsWith('~/')) return join(homeDir || homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(homeDir || homedir(), path);
}

function asMapping(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') return { name: value };
  if (typeof value === 'object' && !Array.isArray(value)) return { ...(value as Record<string, unknown>) };
  throw sandboxErrors.badOption('', value, 'a sandbox name or a mapping with a name');
}

function mode(value: unknown, field: string, fallback: NetworkMode): NetworkMode {
  if (value === undefined) return fallback;
  if (NETWORK_MODES.includes(value as NetworkMode)) return value as NetworkMode;
  throw sandboxErrors.badOption(field, value, 'none, allow or open');
}

function list(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw sandboxErrors.badOption(field, value, 'a list of "host:port" entries');
}

function normalise(entry: string): string {
  const parsed = parseHostPort(entry);
  if (!parsed) throw sandboxErrors.badOption('allow', entry, 'a "host:port" entry, e.g. api.example.com:443 or 127.0.0.1:8080');
  return formatHostPort(parsed);
}

function bool(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  throw sandboxErrors.badOption(field, value, 'true or false');
}

function count(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw sandboxErrors.badOption(field, value, 'a positive number');
}
