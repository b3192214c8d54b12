/** `supervisor doctor`: what is installed and where supervisor will look, told truthfully. */
import { access, constants, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliContext } from './cli/context.ts';
import { runProcess } from './process/run-process.ts';
import { which } from './process/which.ts';
import { selfCommand } from './self-command.ts';
import { VERSION } from './version.ts';

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
}

export interface DoctorReport {
  supervisor: { version: string; node: string; platform: string };
  repo: { root: string; git: boolean };
  git: ToolReport;
  repomix: ToolReport & { via: 'PATH' | 'node_modules' | null };
  adapters: AdapterReport[];
  /** Plan readers (workflow files), with the file endings each reads. */
  planReaders: { name: string; extensions: string[]; source: string }[];
  pluginFolders: { layer: string; dir: string; exists: boolean; files: string[] }[];
  stateDir: { path: string; exists: boolean; writable: boolean };
}

const VERSION_TIMEOUT_MS = 5000;

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

async function probeRepomix(ctx: CliContext): Promise<DoctorReport['repomix']> {
  const onPath = await probeTool('repomix', ['--version'], ctx);
  if (onPath.found) return { ...onPath, via: 'PATH' };
  const local = join(ctx.repoRoot, 'node_modules', '.bin', 'repomix');
  if (await exists(local)) return { found: true, path: local, version: await probeVersion(local, ['--version'], ctx), via: 'node_modules' };
  return { found: false, path: null, version: null, via: null };
}

export async function runDoctor(ctx: CliContext): Promise<DoctorReport> {
  const registry = await ctx.registry();
  const adapterEntries = registry.list().filter((e) => e.plugin.kind === 'adapter');
  const stateDir = join(ctx.repoRoot, '.supervisor');
  // The folders as the registry's discovery read them (--plugin paths are not folders of a layer).
  const pluginFolderReports = (await ctx.pluginSources()).filter((s) => s.layer !== 'cli').map((s) => ({ layer: s.layer, dir: s.origin, exists: s.exists, files: s.files }));

  const [git, repomix, adapters, stateExists] = await Promise.all([
    probeTool('git', ['--version'], ctx),
    probeRepomix(ctx),
    Promise.all(
      adapterEntries.map(async ({ plugin, source }) => {
        const adapter = plugin as Extract<typeof plugin, { kind: 'adapter' }>;
        const tool = adapter.selfHosted ? selfReport() : await probeTool(adapter.bin, adapter.versionArgs ?? ['--version'], ctx);
        return { name: adapter.name, bin: adapter.bin, source, quietEnv: adapter.quietEnv ?? {}, ...tool };
      }),
    ),
    exists(stateDir),
  ]);
  const writable = await access(stateExists ? stateDir : ctx.repoRoot, constants.W_OK).then(() => true, () => false);
  return {
    supervisor: { version: VERSION, node: process.version, platform: `${process.platform}-${process.arch}` },
    repo: { root: ctx.repoRoot, git: await exists(join(ctx.repoRoot, '.git')) },
    git,
    repomix,
    adapters,
    planReaders: registry.list().flatMap((e) => (e.plugin.kind === 'plan-reader' ? [{ name: e.plugin.name, extensions: e.plugin.extensions ?? [], source: e.source }] : [])),
    pluginFolders: pluginFolderReports,
    stateDir: { path: stateDir, exists: stateExists, writable },
  };
}

const mark = (found: boolean) => (found ? 'ok ' : '-- ');

export function renderDoctor(report: DoctorReport): string {
  const lines = [
    `supervisor ${report.supervisor.version} (node ${report.supervisor.node}, ${report.supervisor.platform})`,
    `repo: ${report.repo.root}${report.repo.git ? '' : ' (not a git repository: runs happen in place)'}`,
    '',
    'tools:',
    `  ${mark(report.git.found)}git      ${report.git.found ? `${report.git.version ?? '?'}  ${report.git.path}` : 'not found (required for worktrees and diffs)'}`,
    `  ${mark(report.repomix.found)}repomix  ${report.repomix.found ? `${report.repomix.version ?? '?'}  ${report.repomix.path} (${report.repomix.via})` : 'not found (the repomix packer falls back to glob)'}`,
    '',
    'adapters (CLIs):',
    ...report.adapters.map((a) => {
      const quiet = Object.keys(a.quietEnv).length ? `\n       quiet env: ${Object.entries(a.quietEnv).map(([k, v]) => `${k}=${v}`).join(' ')}` : '';
      return `  ${mark(a.found)}${a.name.padEnd(8)} ${a.found ? `${a.version ?? 'version unknown'}  ${a.path}` : `${a.bin} not on PATH`}${quiet}`;
    }),
    '',
    'plan readers (workflow files):',
    ...report.planReaders.map((r) => `  ${r.name.padEnd(14)} ${r.extensions.length ? r.extensions.join(' ') : '(by detect only)'}  ${r.source}`),
    '',
    'plugin folders (later overrides earlier):',
    ...report.pluginFolders.map((f) => `  ${f.layer.padEnd(13)} ${f.dir}${f.exists ? `: ${f.files.length ? f.files.map((x) => x.split(/[\\/]/).pop()).join(', ') : 'empty'}` : ' (absent)'}`),
    '',
    `state folder: ${report.stateDir.path}${report.stateDir.exists ? '' : ' (created on first run)'}${report.stateDir.writable ? '' : ' NOT WRITABLE'}`,
  ];
  return lines.join('\n');
}
