/**
 * `supervisor doctor --sandbox <name>`: proves from inside what the sandbox promises, through
 * the same path a run's CLI takes (policy, environment allowlist, the plugin's wrap, tear-down).
 * A throwaway layout stands in for a repository (a checkout holding the worktree and scratch
 * folder, host unix sockets listening beside and in it), and supervisor itself runs inside as
 * the probe (probe.ts). Checks: no capabilities and no new privileges; writes to the checkout,
 * the folder around it and the real home refused (and nothing arrived); no host socket answers;
 * an unlisted variable of the caller's is not there.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../process/run-process.ts';
import type { Registry } from '../registry.ts';
import { PROBE_COMMAND, type ProbeFindings, type ProbeRequest } from './probe.ts';
import { cliPolicy } from './policy.ts';
import { checkSandbox, prepareSandbox, sandboxContext, sandboxedRunner } from './runner.ts';

export const UNLISTED_VARIABLE = 'SELFTEST_UNLISTED_SECRET';

export interface SelfTestCheck {
  name: 'capabilities' | 'host_write' | 'host_socket' | 'environment';
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
    await Promise.all([mkdir(work, { recursive: true }), mkdir(scratch, { recursive: true })]);
    await writeFile(join(checkout, 'README.md'), 'the user\'s checkout\n');
    const runtime = input.env.XDG_RUNTIME_DIR;
    const socketPaths = [join(root, 'host.sock'), join(checkout, 'host.sock'), ...(runtime && existsSync(runtime) ? [join(runtime, `supervisor-selftest-${process.pid}.sock`)] : [])];
    const sockets: string[] = [];
    for (const path of socketPaths) {
      const server = await listen(path);
      if (server) servers.push(server), sockets.push(path);
    }
    const writes = [join(checkout, 'written-from-inside'), join(root, 'written-from-inside'), join(input.homeDir, `.supervisor-selftest-${process.pid}`)];
    const findings = await probe(input, { checkout, work, scratch }, { writes, sockets, variables: [UNLISTED_VARIABLE] });
    const arrived = writes.filter((path) => existsSync(path));
    await Promise.all(arrived.map((path) => rm(path, { force: true })));
    const checks = judge(findings, arrived);
    return { sandbox: input.name, ok: checks.every((c) => c.ok), checks };
  } finally {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await rm(root, { recursive: true, force: true });
  }
}

async function probe(input: SelfTestInput, where: { checkout: string; work: string; scratch: string }, request: ProbeRequest): Promise<ProbeFindings> {
  const sandbox = prepareSandbox(input.registry, { flag: { name: input.name, network: 'none' } }, { repoRoot: where.checkout, homeDir: input.homeDir });
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
    runProcess,
  });
  const result = await run({
    bin: input.self.bin,
    args: [...input.self.args, PROBE_COMMAND, JSON.stringify(request)],
    cwd: where.work,
    env: { ...input.env, [UNLISTED_VARIABLE]: 'must not be seen inside' },
    timeoutMs: 60_000,
  });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ProbeFindings;
  } catch {
    const said = (result.stderr || result.spawnError || `exit ${result.exitCode}`).trim().split('\n').slice(-3).join(' / ');
    throw new Error(`the probe did not run inside the ${input.name} sandbox: ${said}`);
  }
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
