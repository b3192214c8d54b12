/** `supervisor doctor --sandbox <name>`: the sandbox's self-test and how a run's processes are tracked. */
import type { CliContext } from '../command/context.ts';
import { renderProcesses } from './doctor.ts';
import { errors } from '../errors.ts';
import { trackingMechanism } from '../process/cgroup.ts';
import { sandboxSelfTest, type SelfTestReport } from '../sandbox/self-test.ts';
import { selfCommand } from '../self-command.ts';

export interface SandboxSelfTestReport extends SelfTestReport {
  /** How the end of a run finds its processes: a cgroup per run (and where), or only the SUPERVISOR_RUN_ID tag. */
  processes: ReturnType<typeof trackingMechanism>;
}

export async function runSandboxSelfTest(ctx: CliContext, name: string): Promise<SandboxSelfTestReport> {
  if (!/^[a-zA-Z][a-zA-Z0-9_-]*$/.test(name)) throw errors.usage(`--sandbox ${JSON.stringify(name)}: expected a sandbox name (doctor lists them)`);
  const registry = await ctx.registry();
  const report = await sandboxSelfTest({ registry, name, env: ctx.deps.env, homeDir: ctx.deps.env.HOME || ctx.deps.homeDir, self: selfCommand() });
  return { ...report, processes: trackingMechanism() };
}

export function renderSelfTest(report: SandboxSelfTestReport): string {
  const label = { capabilities: 'capabilities', host_write: 'host writes', host_socket: 'host sockets', environment: 'environment' } as const;
  return [
    `sandbox ${report.sandbox}: self-test from inside ${report.ok ? 'passed' : 'FAILED'}`,
    ...report.checks.map((c) => `  ${c.ok ? 'ok ' : '-- '}${label[c.name].padEnd(13)} ${c.detail}`),
    renderProcesses(report.processes),
  ].join('\n');
}
