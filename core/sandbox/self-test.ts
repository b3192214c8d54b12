/**
 * `supervisor doctor --sandbox <name>`: proves from inside what the sandbox promises, through
 * the same path a run's CLI takes (policy, environment allowlist, the plugin's wrap, tear-down).
 * A throwaway layout stands in for a repository (a checkout holding the worktree and scratch
 * folder, host unix sockets listening beside and in it), and supervisor itself runs inside as
 * the probe (probe.ts). Checks: no capabilities and no new privileges; writes to the checkout,
 * the folder around it and the real home refused (and nothing arrived); no host socket answers;
 * an unlisted variable of the caller's is not there. I2: a command run through the executor
 * (gates, set-up) is in a PID namespace of its own and sees only allowlisted variables. I3: with
 * a real worktree, the repository's shared git folder cannot be written from inside, and the
 * report says whether the worktree's admin folder can.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../process/run-process.ts';
import type { Registry } from '../registry.ts';
import { PROBE_COMMAND, type ProbeFindings, type ProbeRequest } from './probe.ts';
import { cliPolicy } from './policy.ts';
import { confinedExecutor } from './executor.ts';
import { checkSandbox, prepareSandbox, sandboxContext, sandboxedRunner, type PreparedSandbox } from './runner.ts';
import type { WorktreeGit } from '../plugin-api/contracts.ts';

export const UNLISTED_VARIABLE = 'SELFTEST_UNLISTED_SECRET';

export interface SelfTestCheck {
  name: 'capabilities' | 'host_write' | 'host_socket' | 'environment' | 'executor' | 'git_folders';
  ok: boolean;
  detail: string;
}

export interface SelfTestReport {
  sandbox: string;
  ok: boolean;
  checks: SelfTestCheck[];
}

export interface SelfTestInput {
  registry: Registry;
  name: string;
  env: Record<string, string | undefined>;
  homeDir: string;
  self: { bin: string; args: string[] };
  /**
   * Makes `checkout` a repository and `work` a worktree of it (the caller's git), returning its
   * git folders and the shared files a CLI must not write (index, HEAD, config, a ref). Without
   * it, or when it returns null, the git folders are not checked.
   */
  makeWorktree?(checkout: string, work: string): Promise<(WorktreeGit & { files: string[] }) | null>;
}

interface Layout {
  checkout: string;
  work: string;
  scratch: string;
  git: (WorktreeGit & { files: string[] }) | null;
}

async function listen(path: string): Promise<Server | undefined> {
  const server = createServer((socket) => {
    socket.on('error', () => {}); // the probe hangs up at once
    socket.end('host socket\n');
  });
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(path, () => resolve(server));
  });
}

export async function sandboxSelfTest(input: SelfTestInput): Promise<SelfTestReport> {
  const root = await mkdtemp(join(tmpdir(), 'sv-selftest-'));
  const checkout = join(root, 'checkout');
  const work = join(checkout, '.supervisor', 'worktrees', 'self-test');
  const scratch = join(checkout, '.supervisor', 'runs', 'self-test');
  const servers: Server[] = [];
  try {
    await Promise.all([mkdir(join(work, '..'), { recursive: true }), mkdir(scratch, { recursive: true })]);
    await writeFile(join(checkout, 'README.md'), 'the user\'s checkout\n');
    const git = (await input.makeWorktree?.(checkout, work).catch(() => null)) ?? null;
    if (!git) await mkdir(work, { recursive: true });
    const runtime = input.env.XDG_RUNTIME_DIR;
    const socketPaths = [join(root, 'host.sock'), join(checkout, 'host.sock'), ...(runtime && existsSync(runtime) ? [join(runtime, `supervisor-selftest-${process.pid}.sock`)] : [])];
    const sockets: string[] = [];
    for (const path of socketPaths) {
      const server = await listen(path);
      if (server) servers.push(server), sockets.push(path);
    }
    const layout: Layout = { checkout, work, scratch, git };
    const writes = [join(checkout, 'written-from-inside'), join(root, 'written-from-inside'), join(input.homeDir, `.supervisor-selftest-${process.pid}`)];
    const gitFiles = git?.files ?? [];
    const before = gitFiles.map(digest);
    const sandbox = prepareSandbox(input.registry, { flag: { name: input.name, network: 'none' } }, { repoRoot: checkout, homeDir: input.homeDir });
    const findings = await probe(input, sandbox, layout, { writes, sockets, variables: [UNLISTED_VARIABLE], opens: gitFiles, links: git ? [join(git.admin, 'sv-probe-link')] : [] });
    const executed = await probeThroughExecutor(input, sandbox, layout);
    const arrived = writes.filter((path) => existsSync(path));
    await Promise.all(arrived.map((path) => rm(path, { force: true })));
    const changed = gitFiles.filter((file, i) => digest(file) !== before[i]);
    const checks = [...judge(findings, arrived), judgeExecutor(executed), ...(git ? [judgeGitFolders(findings, git, changed)] : [])];
    return { sandbox: input.name, ok: checks.every((c) => c.ok), checks };
  } finally {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await rm(root, { recursive: true, force: true });
  }
}

async function probe(input: SelfTestInput, sandbox: PreparedSandbox, where: Layout, request: ProbeRequest): Promise<ProbeFindings> {
  const ctx = sandboxContext({ env: input.env, self: input.self, notice: () => {} });
  await checkSandbox(sandbox, ctx);
  const run = sandboxedRunner({
    sandbox,
    ctx,
    purpose: 'cli',
    policy: cliPolicy(sandbox.choice, undefined, input.env, input.homeDir),
    scratchDir: where.scratch,
    repoRoot: where.checkout,
    homeDir: input.homeDir,
    id: `self-test-${process.pid}`,
    ...(where.git ? { git: { admin: where.git.admin, common: where.git.common } } : {}),
    runProcess,
  });
  const result = await run({
    bin: input.self.bin,
    args: [...input.self.args, PROBE_COMMAND, JSON.stringify(request)],
    cwd: where.work,
    env: { ...input.env, [UNLISTED_VARIABLE]: 'must not be seen inside' },
    timeoutMs: 60_000,
  });
  return findingsOf(result, input.name);
}

function findingsOf(result: { stdout: string; stderr: string; spawnError?: string; exitCode: number | null }, name: string): ProbeFindings {
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ProbeFindings;
  } catch {
    const said = (result.stderr || result.spawnError || `exit ${result.exitCode}`).trim().split('\n').slice(-3).join(' / ');
    throw new Error(`the probe did not run inside the ${name} sandbox: ${said}`);
  }
}

/** The probe as a gate runs: through the one executor (core/sandbox/executor.ts), which gates and set-up use. */
async function probeThroughExecutor(input: SelfTestInput, sandbox: PreparedSandbox, where: Layout): Promise<ProbeFindings> {
  const executor = confinedExecutor({
    sandbox,
    purpose: 'gate',
    env: { ...input.env, [UNLISTED_VARIABLE]: 'must not be seen inside' },
    self: input.self,
    notice: () => {},
    cwd: where.work,
    ...(where.git ? { git: { admin: where.git.admin, common: where.git.common } } : {}),
    scratchDir: where.scratch,
    id: `self-test-executor-${process.pid}`,
  });
  try {
    const request: ProbeRequest = { writes: [], sockets: [], variables: [UNLISTED_VARIABLE] };
    const result = await executor.spawn({ bin: input.self.bin, args: [...input.self.args, PROBE_COMMAND, JSON.stringify(request)], cwd: where.work, env: { ...input.env, [UNLISTED_VARIABLE]: 'must not be seen inside' }, timeoutMs: 60_000 });
    return findingsOf(result, input.name);
  } finally {
    await executor.close(500);
  }
}

function digest(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return 'absent';
  }
}

function ownPidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

/** I2: a command through the executor runs in a PID namespace of its own and sees only allowlisted variables. */
function judgeExecutor(findings: ProbeFindings): SelfTestCheck {
  const host = ownPidNamespace();
  const ownNamespace = findings.pidNamespace !== null && findings.pidNamespace !== host;
  const sawVariable = findings.variables.includes(UNLISTED_VARIABLE);
  const where = findings.pidNamespace === null ? 'a PID namespace it cannot read' : ownNamespace ? `a PID namespace of its own (${findings.pidNamespace})` : `the host's PID namespace (${findings.pidNamespace})`;
  return {
    name: 'executor',
    ok: ownNamespace && !sawVariable,
    detail: `a gate or set-up command (through the one executor) runs in ${where}; ${UNLISTED_VARIABLE} (not allowlisted) is ${sawVariable ? 'visible' : 'not visible'} there`,
  };
}

/** I3: the repository's shared git folder cannot be written from inside; whether the worktree's admin folder can is said. */
function judgeGitFolders(findings: ProbeFindings, git: WorktreeGit, changed: string[]): SelfTestCheck {
  const opened = Object.entries(findings.opens ?? {}).filter(([, error]) => error === null).map(([path]) => path);
  const planted = Object.values(findings.links ?? {}).some((error) => error === null);
  const admin = planted ? `the worktree's admin folder ${git.admin} is writable inside (a link was planted there): supervisor's host-side git must not follow its files` : `the worktree's admin folder ${git.admin} is read-only inside`;
  if (opened.length || changed.length) return { name: 'git_folders', ok: false, detail: `writable from inside: ${[...new Set([...opened, ...changed])].join(', ')}; ${admin}` };
  return { name: 'git_folders', ok: true, detail: `the repository's git folder ${git.common} (${Object.keys(findings.opens ?? {}).length} files: index, HEAD, config, a branch) is read-only inside; ${admin}` };
}

function judge(findings: ProbeFindings, arrived: string[]): SelfTestCheck[] {
  const { CapEff: capEff, NoNewPrivs: noNewPrivs } = findings.status;
  const noCaps = capEff !== undefined && /^0+$/.test(capEff);
  const writes = Object.entries(findings.writes);
  const reached = Object.entries(findings.sockets).filter(([, error]) => error === null).map(([path]) => path);
  return [
    {
      name: 'capabilities',
      ok: noCaps && noNewPrivs === '1',
      detail: capEff === undefined ? 'could not be read inside (/proc/self/status)' : `CapEff ${capEff}, NoNewPrivs ${noNewPrivs ?? '?'}`,
    },
    {
      name: 'host_write',
      // A write may succeed inside (the private home): what counts is that nothing reached the host.
      ok: arrived.length === 0,
      detail: arrived.length ? `written from inside: ${arrived.join(', ')}` : writes.map(([path, error]) => `${path} ${error === null ? 'written (inside only)' : `refused (${error})`}`).join('; '),
    },
    {
      name: 'host_socket',
      ok: reached.length === 0,
      detail: reached.length ? `answered inside: ${reached.join(', ')}` : `${Object.keys(findings.sockets).length} host socket(s) unreachable: ${Object.entries(findings.sockets).map(([p, e]) => `${p} (${e})`).join(', ')}`,
    },
    {
      name: 'environment',
      ok: !findings.variables.includes(UNLISTED_VARIABLE),
      detail: findings.variables.includes(UNLISTED_VARIABLE) ? `${UNLISTED_VARIABLE} (not allowlisted) is visible inside` : `${UNLISTED_VARIABLE} (not allowlisted) is not visible inside`,
    },
  ];
}
