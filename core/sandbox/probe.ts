/**
 * The inside half of `doctor --sandbox <name>` (`supervisor __probe <json>`): run in the sandbox,
 * it tries what a CLI must not manage and prints what happened as one JSON line; the outside
 * half (self-test.ts) judges it. Tries: its capabilities and no-new-privileges (/proc), a write
 * to each host path, a connection to each host unix socket, whether each variable is set, its
 * PID namespace, opening existing host files for writing, and planting a symbolic link.
 */
import { closeSync, openSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { errors } from '../errors.ts';

export const PROBE_COMMAND = '__probe';

export interface ProbeRequest {
  writes: string[];
  sockets: string[];
  variables: string[];
  /** Existing files to open for writing (nothing is written). */
  opens?: string[];
  /** Paths where a symbolic link (to a path that does not exist) is planted. */
  links?: string[];
}

export interface ProbeFindings {
  status: Record<string, string>;
  /** Per path: null when the write succeeded, else the error code. */
  writes: Record<string, string | null>;
  /** Per socket: null when it answered, else the error code. */
  sockets: Record<string, string | null>;
  /** The variables (of those asked about) that are set. */
  variables: string[];
  /** Per file: null when it opened for writing, else the error code. */
  opens: Record<string, string | null>;
  /** Per path: null when the link was planted, else the error code. */
  links: Record<string, string | null>;
  /** The probe's PID namespace (/proc/self/ns/pid), null when unreadable. */
  pidNamespace: string | null;
}

function attempt(work: () => void): string | null {
  try {
    work();
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

function pidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

function statusLines(): Record<string, string> {
  try {
    const lines = readFileSync('/proc/self/status', 'utf8').split('\n');
    return Object.fromEntries(lines.flatMap((line) => {
      const match = /^(CapEff|CapPrm|CapBnd|NoNewPrivs|Uid):\s*(.*)$/.exec(line);
      return match ? [[match[1]!, match[2]!.trim()]] : [];
    }));
  } catch {
    return {};
  }
}

function tryWrite(path: string): string | null {
  try {
    writeFileSync(path, 'written from inside the sandbox\n', { flag: 'wx' });
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

function tryConnect(path: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect(path, () => {
      socket.destroy();
      resolve(null);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.setTimeout(5000, () => {
      socket.destroy();
      resolve('ETIMEDOUT');
    });
  });
}

export async function runProbe(argv: string[], out: (text: string) => void = (t) => void process.stdout.write(t)): Promise<number> {
  let request: ProbeRequest;
  try {
    request = JSON.parse(argv[0] ?? '') as ProbeRequest;
  } catch {
    throw errors.usage(`${PROBE_COMMAND}: expected one JSON argument {writes, sockets, variables}`);
  }
  const sockets: Record<string, string | null> = {};
  for (const path of request.sockets ?? []) sockets[path] = await tryConnect(path);
  const findings: ProbeFindings = {
    status: statusLines(),
    writes: Object.fromEntries((request.writes ?? []).map((path) => [path, tryWrite(path)])),
    sockets,
    variables: (request.variables ?? []).filter((name) => process.env[name] !== undefined),
    opens: Object.fromEntries((request.opens ?? []).map((path) => [path, attempt(() => closeSync(openSync(path, 'r+')))])),
    links: Object.fromEntries((request.links ?? []).map((path) => [path, attempt(() => symlinkSync('/nonexistent-sv-probe-target', path))])),
    pidNamespace: pidNamespace(),
  };
  out(`${JSON.stringify(findings)}\n`);
  return 0;
}
