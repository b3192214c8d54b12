/** `supervisor doctor`: what is installed and where supervisor will look, told truthfully. */
import { access, constants, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliContext } from '../command/context.ts';
import { trackingMechanism } from '../process/cgroup.ts';
import { runProcess } from '../process/run-process.ts';
import { which } from '../process/which.ts';
import { selfCommand } from '../self-command.ts';
import { VERSION } from '../version.ts';

export interface ToolReport {
  found: boolean;
  path: string | null;
  version: string | null;
}

export interface AdapterReport extends ToolReport {
  name: string;
  bin: string;
  source: string;
  /** Environment the adapter sets to keep its CLI offline-safe and quiet. */
  quietEnv: Record<string, string>;
  /** How `allowed_commands` reach the CLI: each listed command, all or none, or not at all. */
  commandPermissions: 'list' | 'all-or-none' | 'none';
}

export interface SandboxReport {
  name: string;
  source: string;
  available: boolean;
  missing: string | null;
  hint: string | null;
}

export interface DoctorReport {
  supervisor: { version: string; node: string; platform: string };
  repo: { root: string; git: boolean };
  git: ToolReport;
  repomix: ToolReport & { via: 'PATH' | 'node_modules' | null; notTrusted?: boolean };
  /** Whether the repository may run its own code (plugins, templates, its repomix): core/trust. */
  trust: { trusted: boolean; via: 'flag' | 'list' | 'none'; path: string; entry: string | null; file: string };
  /** Plugin files that failed to load, with why. */
  brokenPlugins: { file: string; layer: string; code: string; message: string }[];
  adapters: AdapterReport[];
  /** Plan readers (workflow files), with the file endings each reads. */
  planReaders: { name: string; extensions: string[]; source: string }[];
  /** Each sandbox and whether it can run here (what is missing and how to get it, if not). */
  sandboxes: SandboxReport[];
  pluginFolders: { layer: string; dir: string; exists: boolean; files: string[]; untrusted: string[] }[];
  stateDir: { path: string; exists: boolean; writable: boolean };
  /** How the end of a run finds its processes: a cgroup per run (where supervisor may make one), or the SUPERVISOR_RUN_ID tag only. */
  processes: ReturnType<typeof trackingMechanism>;
}

const VERSION_TIMEOUT_MS = 5000;

const COMMAND_PERMISSIONS_TEXT: Record<AdapterReport['commandPermissions'], string> = {
  list: 'each command allowed by name',
  'all-or-none': 'any command inside the CLI\'s own sandbox, or none (a list cannot be enforced)',
  none: 'not supported (the CLI has no such mechanism: the commands are only named in the prompt)',
};

async function probeVersion(path: string, args: string[], ctx: CliContext): Promise<string | null> {
  const result = await runProcess({ bin: path, args, cwd: ctx.repoRoot, env: ctx.deps.env, timeoutMs: VERSION_TIMEOUT_MS, graceMs: 500, maxOutputBytes: 64 * 1024 });
  if (result.exitCode !== 0) return null;
  const line = `${result.stdout}\n${result.stderr}`.split('\n').map((l) => l.trim()).find(Boolean);
  return line ?? null;
}

async function probeTool(bin: string, args: string[], ctx: CliContext): Promise<ToolReport> {
  const path = which(bin, ctx.deps.env);
  if (!path) return { found: false, path: null, version: null };
  return { found: true, path, version: await probeVersion(path, args, ctx) };
}

/** An adapter that answers through supervisor itself is there whenever supervisor is. */
function selfReport(): ToolReport {
  return { found: true, path: selfCommand().bin, version: `supervisor ${VERSION} (built in)` };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

async function probeRepomix(ctx: CliContext, trusted: boolean): Promise<DoctorReport['repomix']> {
  const onPath = await probeTool('repomix', ['--version'], ctx);
  if (onPath.found) return { ...onPath, via: 'PATH' };
  const local = join(ctx.repoRoot, 'node_modules', '.bin', 'repomix');
  // The repository's own repomix is its code: not even asked for its version unless trusted.
  if (await exists(local)) {
    if (!trusted) return { found: false, path: local, version: null, via: 'node_modules', notTrusted: true };
    return { found: true, path: local, version: await probeVersion(local, ['--version'], ctx), via: 'node_modules' };
  }
  return { found: false, path: null, version: null, via: null };
}

export async function runDoctor(ctx: CliContext): Promise<DoctorReport> {
  const registry = await ctx.registry();
  const trust = await ctx.trust();
  const brokenPlugins = (await ctx.brokenPlugins()).map(({ file, layer, error }) => ({ file, layer, code: error.code, message: error.message }));
  const adapterEntries = registry.list().filter((e) => e.plugin.kind === 'adapter');
  const stateDir = join(ctx.repoRoot, '.supervisor');
  // The folders as the registry's discovery read them (--plugin paths are not folders of a layer).
  const pluginFolderReports = (await ctx.pluginSources()).filter((s) => s.layer !== 'cli').map((s) => ({ layer: s.layer, dir: s.origin, exists: s.exists, files: s.files, untrusted: s.untrusted ?? [] }));

  const [git, repomix, adapters, stateExists] = await Promise.all([
    probeTool('git', ['--version'], ctx),
    probeRepomix(ctx, trust.trusted),
    Promise.all(
      adapterEntries.map(async ({ plugin, source }) => {
        const adapter = plugin as Extract<typeof plugin, { kind: 'adapter' }>;
        const tool = adapter.selfHosted ? selfReport() : await probeTool(adapter.bin, adapter.versionArgs ?? ['--version'], ctx);
        return { name: adapter.name, bin: adapter.bin, source, quietEnv: adapter.quietEnv ?? {}, commandPermissions: adapter.commandPermissions ?? ('none' as const), ...tool };
      }),
    ),
    exists(stateDir),
  ]);
  const sandboxes = await sandboxReports(registry, ctx);
  const writable = await access(stateExists ? stateDir : ctx.repoRoot, constants.W_OK).then(() => true, () => false);
  return {
    supervisor: { version: VERSION, node: process.version, platform: `${process.platform}-${process.arch}` },
    repo: { root: ctx.repoRoot, git: await exists(join(ctx.repoRoot, '.git')) },
    trust: { trusted: trust.trusted, via: trust.via, path: trust.path, entry: trust.entry ?? null, file: trust.file },
    brokenPlugins,
    git,
    repomix,
    adapters,
    planReaders: registry.list().flatMap((e) => (e.plugin.kind === 'plan-reader' ? [{ name: e.plugin.name, extensions: e.plugin.extensions ?? [], source: e.source }] : [])),
    sandboxes,
    pluginFolders: pluginFolderReports,
    stateDir: { path: stateDir, exists: stateExists, writable },
    processes: trackingMechanism(),
  };
}

async function sandboxReports(registry: Awaited<ReturnType<CliContext['registry']>>, ctx: CliContext): Promise<SandboxReport[]> {
  const { sandboxContext } = await import('../sandbox/runner.ts');
  const sctx = sandboxContext({ env: ctx.deps.env, self: selfCommand(), notice: () => {} });
  const entries = registry.list().filter((e) => e.plugin.kind === 'sandbox');
  return Promise.all(
    entries.map(async ({ plugin, source }) => {
      const sandbox = plugin as Extract<typeof plugin, { kind: 'sandbox' }>;
      try {
        const found = await sandbox.available(sctx);
        return { name: sandbox.name, source, available: found.ok, missing: found.ok ? null : found.missing, hint: found.ok ? null : found.hint };
      } catch (error) {
        return { name: sandbox.name, source, available: false, missing: `a working check (${error instanceof Error ? error.message : String(error)})`, hint: 'fix the sandbox plugin' };
      }
    }),
  );
}

export function renderProcesses(processes: DoctorReport['processes']): string {
  return processes.mechanism === 'cgroup'
    ? `processes: each run gets a cgroup under ${processes.where} (a daemon that drops SUPERVISOR_RUN_ID is still ended), and the SUPERVISOR_RUN_ID tag`
    : 'processes: found by the SUPERVISOR_RUN_ID tag and process groups only (no cgroup can be made here: a daemon that drops the variable may outlive its run)';
}

const mark = (found: boolean) => (found ? 'ok ' : '-- ');

export function renderDoctor(report: DoctorReport): string {
  const lines = [
    `supervisor ${report.supervisor.version} (node ${report.supervisor.node}, ${report.supervisor.platform})`,
    `repo: ${report.repo.root}${report.repo.git ? '' : ' (not a git repository: runs happen in place)'}`,
    `trust: ${renderTrust(report.trust)}`,
    '',
    'tools:',
    `  ${mark(report.git.found)}git      ${report.git.found ? `${report.git.version ?? '?'}  ${report.git.path}` : 'not found (required for worktrees and diffs)'}`,
    `  ${mark(report.repomix.found)}repomix  ${report.repomix.found ? `${report.repomix.version ?? '?'}  ${report.repomix.path} (${report.repomix.via})` : report.repomix.notTrusted ? `${report.repomix.path} not run: repository not trusted` : 'not found (the repomix packer falls back to glob)'}`,
    '',
    'adapters (CLIs):',
    ...report.adapters.map((a) => {
      const quiet = Object.keys(a.quietEnv).length ? `\n       quiet env: ${Object.entries(a.quietEnv).map(([k, v]) => `${k}=${v}`).join(' ')}` : '';
      return `  ${mark(a.found)}${a.name.padEnd(8)} ${a.found ? `${a.version ?? 'version unknown'}  ${a.path}` : `${a.bin} not on PATH`}${quiet}\n       allowed_commands: ${COMMAND_PERMISSIONS_TEXT[a.commandPermissions]}`;
    }),
    '',
    'plan readers (workflow files):',
    ...report.planReaders.map((r) => `  ${r.name.padEnd(14)} ${r.extensions.length ? r.extensions.join(' ') : '(by detect only)'}  ${r.source}`),
    '',
    'sandboxes (--sandbox <name>):',
    ...report.sandboxes.map((s) => `  ${mark(s.available)}${s.name.padEnd(8)} ${s.available ? 'can run here' : `cannot run here: ${s.missing} is missing (${s.hint})`}`),
    '',
    'plugin folders (later overrides earlier):',
    ...report.pluginFolders.map((f) => `  ${f.layer.padEnd(13)} ${f.dir}${f.exists ? `: ${folderFiles(f)}` : ' (absent)'}`),
    ...(report.brokenPlugins.length ? ['', 'broken plugins (not loaded):', ...report.brokenPlugins.map((b) => `  ${b.message}`)] : []),
    '',
    `state folder: ${report.stateDir.path}${report.stateDir.exists ? '' : ' (created on first run)'}${report.stateDir.writable ? '' : ' NOT WRITABLE'}`,
    renderProcesses(report.processes),
  ];
  return lines.join('\n');
}

function renderTrust(trust: DoctorReport['trust']): string {
  if (trust.via === 'flag') return 'trusted for this command (--trust)';
  if (trust.via === 'list') return `trusted (${trust.entry} in ${trust.file})`;
  return `NOT trusted: its plugins, templates and repomix are not loaded (trust it with: supervisor trust ${trust.path})`;
}

const fileName = (path: string) => path.split(/[\\/]/).pop();

function folderFiles(folder: DoctorReport['pluginFolders'][number]): string {
  if (folder.untrusted.length) return `${folder.untrusted.map(fileName).join(', ')} (not loaded: repository not trusted)`;
  return folder.files.length ? folder.files.map(fileName).join(', ') : 'empty';
}
