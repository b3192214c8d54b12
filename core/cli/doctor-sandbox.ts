/** `supervisor doctor --sandbox <name>`: the sandbox's self-test and how a run's processes are tracked. */
import type { CliContext } from '../command/context.ts';
import { renderProcesses } from './doctor.ts';
import { errors } from '../errors.ts';
import { trackingMechanism } from '../process/cgroup.ts';
import { sandboxSelfTest, type SelfTestReport } from '../sandbox/self-test.ts';
import { selfCommand } from '../self-command.ts';
import { gitOrThrow } from '../git/git.ts';
import { join, resolve } from 'node:path';

export interface SandboxSelfTestReport extends SelfTestReport {
  /** How the end of a run finds its processes: a cgroup per run (and where), or only the SUPERVISOR_RUN_ID tag. */
  processes: ReturnType<typeof trackingMechanism>;
}

export async function runSandboxSelfTest(ctx: CliContext, name: string): Promise<SandboxSelfTestReport> {
  if (!/^[a-zA-Z][a-zA-Z0-9_-]*$/.test(name)) throw errors.usage(`--sandbox ${JSON.stringify(name)}: expected a sandbox name (doctor lists them)`);
  const registry = await ctx.registry();
  const report = await sandboxSelfTest({ registry, name, env: ctx.deps.env, homeDir: ctx.deps.env.HOME || ctx.deps.homeDir, self: selfCommand(), makeWorktree: (checkout, work) => throwawayWorktree(checkout, work, ctx.deps.env) });
  return { ...report, processes: trackingMechanism() };
}

/** A throwaway repository with one commit and a worktree of it, as a run makes one: its git folders and the shared files to guard. */
async function throwawayWorktree(checkout: string, work: string, env: Record<string, string | undefined>) {
  const identity = ['-c', 'user.name=supervisor doctor', '-c', 'user.email=doctor@supervisor.invalid', '-c', 'commit.gpgsign=false'];
  await gitOrThrow(checkout, ['init', '-q'], env);
  await gitOrThrow(checkout, ['add', 'README.md'], env);
  await gitOrThrow(checkout, [...identity, 'commit', '-q', '-m', 'self-test'], env);
  await gitOrThrow(checkout, ['worktree', 'add', '-q', '--detach', work], env);
  const admin = resolve(work, (await gitOrThrow(work, ['rev-parse', '--git-dir'], env)).trim());
  const common = join(checkout, '.git');
  const branch = (await gitOrThrow(checkout, ['rev-parse', '--symbolic-full-name', 'HEAD'], env)).trim();
  return { admin, common, files: ['index', 'HEAD', 'config', branch].map((file) => join(common, file)) };
}

export function renderSelfTest(report: SandboxSelfTestReport): string {
  const label = { capabilities: 'capabilities', host_write: 'host writes', host_socket: 'host sockets', environment: 'environment', executor: 'I2 executor', git_folders: 'I3 git dirs' } as const;
  return [
    `sandbox ${report.sandbox}: self-test from inside ${report.ok ? 'passed' : 'FAILED'}`,
    ...report.checks.map((c) => `  ${c.ok ? 'ok ' : '-- '}${label[c.name].padEnd(13)} ${c.detail}`),
    renderProcesses(report.processes),
  ].join('\n');
}
