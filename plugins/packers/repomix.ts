/**
 * repomix: packs with repomix (https://github.com/yamadashy/repomix) and hands its output on
 * as the `files` part. Looks for `<repo>/node_modules/.bin/repomix`, then `repomix` on PATH,
 * then runs the pinned version through `npx` — offline (npm_config_offline), so with no
 * network and no cached copy npx fails in seconds instead of hanging. Whenever repomix cannot
 * be had, times out or fails, the glob packer does the job instead, with a notice (seed 002,
 * "Fallback Behavior"). repomix follows symlinks, so the files its output lists are checked
 * to stay inside the repository; if one does not, its output is refused (with a warning) and
 * glob packs instead.
 *
 * Context options: `repomix_online: true` lets npx download; `repomix_timeout_ms` (default
 * 120000) bounds the pack, `repomix_probe_timeout_ms` (default 15000) the npx availability
 * check; `repomix_security_check: false` passes --no-security-check.
 *
 * Whatever repomix's own check let through, its output is scanned here too, file by file, with
 * the core's secret scan: a file that looks like it holds a secret is cut out of the output
 * with a notice; if the output as a whole still does after that (a file whose text forged a
 * file heading, say), or it lists a file inside `.git/`, the output is refused and glob packs.
 */
import { realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { escapePath } from 'tinyglobby';
import { definePlugin, secretNotice, which, type PackContext, type PackRequest, type PackResult } from '../../core/plugin-api/index.ts';

/** Pinned for supply-chain safety; the newest release that runs on Node 20. */
export const REPOMIX_VERSION = '1.13.1';

/** Keeps npm/npx from touching the network, prompting or printing notices. */
const NPX_OFFLINE_ENV: Record<string, string> = {
  npm_config_offline: 'true',
  npm_config_yes: 'true',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  NO_UPDATE_NOTIFIER: '1',
};

interface Command {
  bin: string;
  prefix: string[];
  env: Record<string, string>;
  via: string;
}

const numberOption = (value: unknown, fallback: number) => (typeof value === 'number' && value > 0 ? value : fallback);

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether `file` (symlinks resolved) lies in `root`. */
function inside(file: string, root: string): boolean {
  const rel = relative(real(root), real(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** How repomix can be run here, or why it cannot. */
async function findRepomix(request: PackRequest, ctx: PackContext): Promise<Command | string> {
  const local = which(join(request.repoRoot, 'node_modules', '.bin', process.platform === 'win32' ? 'repomix.cmd' : 'repomix'), ctx.env);
  if (local && ctx.repoTrusted) return { bin: local, prefix: [], env: {}, via: 'node_modules' };
  const global = which('repomix', ctx.env);
  // A PATH entry into the repository (its node_modules/.bin) finds the repository's own repomix.
  if (global && !ctx.repoTrusted && inside(global, request.repoRoot)) return `${global} was not run: it is this repository's own, and this repository is not trusted to run its own code (trust it with: supervisor trust ${request.repoRoot})`;
  if (global) return { bin: global, prefix: [], env: {}, via: 'PATH' };
  // npx run inside the repository would pick the repository's own repomix up again.
  if (local) return `${local} was not run: this repository is not trusted to run its own code (trust it with: supervisor trust ${request.repoRoot})`;
  const npx = which('npx', ctx.env);
  if (!npx) return 'repomix is not installed and npx is not on PATH';
  const online = request.context.repomix_online === true;
  const command: Command = { bin: npx, prefix: ['--yes', `repomix@${REPOMIX_VERSION}`], env: online ? {} : NPX_OFFLINE_ENV, via: 'npx' };
  const probe = await ctx.runProcess({
    bin: npx,
    args: [...command.prefix, '--version'],
    cwd: request.repoRoot,
    env: command.env,
    timeoutMs: numberOption(request.context.repomix_probe_timeout_ms, 15_000),
    maxOutputBytes: 64 * 1024,
  });
  if (probe.timedOut) return `npx repomix@${REPOMIX_VERSION} did not answer within ${probe.durationMs} ms`;
  if (probe.exitCode !== 0) {
    const lines = probe.stderr.split('\n').map((l) => l.trim()).filter(Boolean);
    const why = lines.find((l) => /error/i.test(l)) ?? lines[0] ?? `exit code ${probe.exitCode}`;
    return `npx repomix@${REPOMIX_VERSION} is not available${online ? '' : ' offline'} (${why.slice(0, 200)})`;
  }
  return command;
}

function filesIn(output: string, style: 'markdown' | 'xml'): string[] {
  const pattern = style === 'xml' ? /^<file path="([^"]+)">$/gm : /^## File: (.+)$/gm;
  return [...output.matchAll(pattern)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&'));
}

/** Why repomix's own output cannot be used. */
type Failure = string | { refused: string[] };

/** The output cut where each file's section starts ("## File: x" or <file path="x">), with the file each piece belongs to ("" before the first). */
function sections(output: string, style: 'markdown' | 'xml'): { path: string; text: string }[] {
  const heading = style === 'xml' ? /^<file path="([^"]+)">$/gm : /^## File: (.+)$/gm;
  const starts = [...output.matchAll(heading)];
  const pieces = [{ path: '', text: output.slice(0, starts[0]?.index ?? output.length) }];
  starts.forEach((m, i) => pieces.push({ path: filesIn(m[0], style)[0] ?? '', text: output.slice(m.index, starts[i + 1]?.index ?? output.length) }));
  return pieces;
}

/** The output less each file's section that looks like it holds a secret (with notices), or why it cannot be used. */
async function withoutSecrets(output: string, request: PackRequest, ctx: PackContext, notices: string[]): Promise<{ text: string; files: string[] } | string> {
  const kept: string[] = [];
  const files: string[] = [];
  for (const piece of sections(output, request.style)) {
    const rules = await ctx.scanSecrets(piece.path || 'repomix output', piece.text);
    if (rules.length === 0) {
      kept.push(piece.text);
      if (piece.path) files.push(piece.path);
    } else if (piece.path) notices.push(secretNotice('repomix', piece.path, rules));
    else return `its output looks like it holds a secret outside any file's section (${rules.join(', ')})`;
  }
  const text = kept.join('');
  // Cut into pieces, a secret spread over two of them would be missed: the whole is checked too.
  const left = await ctx.scanSecrets('repomix output', text);
  if (left.length) return `its output looks like it holds a secret across file sections (${left.join(', ')})`;
  return { text, files };
}

async function runRepomix(command: Command, request: PackRequest, ctx: PackContext): Promise<PackResult | Failure> {
  const scratch = await mkdtemp(join(tmpdir(), 'sv-repomix-'));
  const output = join(scratch, request.style === 'xml' ? 'out.xml' : 'out.md');
  try {
    const args = [...command.prefix, '--style', request.style, '--output', output, '--quiet', '--no-file-summary', '--include', request.include.join(',')];
    const ignore = [...request.exclude, ...(request.skipFiles ?? []).map(escapePath)];
    if (ignore.length) args.push('--ignore', ignore.join(','));
    if (request.context.repomix_security_check === false) args.push('--no-security-check');
    args.push('.');
    const result = await ctx.runProcess({
      bin: command.bin,
      args,
      cwd: request.repoRoot,
      env: command.env,
      timeoutMs: numberOption(request.context.repomix_timeout_ms, 120_000),
    });
    if (result.timedOut) return `repomix timed out after ${result.durationMs} ms`;
    if (result.exitCode !== 0) return `repomix failed (exit code ${result.exitCode}: ${result.stderr.trim().split('\n')[0] ?? ''})`;
    const text = await readFile(output, 'utf8').catch(() => '');
    if (!text.trim()) return 'repomix wrote no output';
    const files = filesIn(text, request.style);
    // Headings with no file under them (nothing matched), or a layout we cannot read: either
    // way nothing we can check, so glob decides.
    if (files.length === 0) return 'repomix packed no files';
    // repomix follows symlinks: a file reached through one that leads outside must not be packed.
    const outside = await ctx.outsideRepo(files);
    const gitDir = files.filter((f) => f.split('/').some((s) => s.toLowerCase() === '.git'));
    if (outside.length || gitDir.length) return { refused: [...outside, ...gitDir] };
    const notices: string[] = [];
    const clean = await withoutSecrets(text, request, ctx, notices);
    if (typeof clean === 'string') return clean;
    if (clean.files.length === 0) return { parts: [], notices, secretsScanned: true };
    return { parts: [{ key: 'files', content: clean.text.trim(), files: clean.files }], notices, secretsScanned: true };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export default definePlugin({
  kind: 'packer',
  name: 'repomix',
  contextKeys: ['repomix_online', 'repomix_timeout_ms', 'repomix_probe_timeout_ms', 'repomix_security_check'],
  description: `Packs with repomix (node_modules, PATH, or offline npx repomix@${REPOMIX_VERSION}); falls back to glob`,
  async pack(request, ctx) {
    if (request.include.length === 0) return { parts: [], notices: [] };
    const command = await findRepomix(request, ctx);
    const result = typeof command === 'string' ? command : await runRepomix(command, request, ctx);
    if (typeof result === 'object' && 'parts' in result) return result;
    const fallback = await ctx.runPacker('glob', request);
    if (typeof result === 'string') return { ...fallback, notices: [`repomix: ${result}; packed with glob instead`, ...fallback.notices] };
    const why = `repomix: refused its output: ${result.refused.join(', ')} lead${result.refused.length === 1 ? 's' : ''} outside the repository (through a symlink) or into .git; packed with glob instead`;
    return { ...fallback, warnings: [why, ...(fallback.warnings ?? [])] };
  },
});
