/**
 * Gathers every context part for a pack, in prompt order (seed `pack_file_context` /
 * `pack_context`): always_include, target files, the git parts (through the git-diff
 * packer), $TARGET_IMPORTS, the packers' files, then extra sections. Each packer is told
 * which files the parts before it hold (`skipFiles`), so nothing appears twice.
 */
import type { PackRequest } from '../plugin-api/contracts.ts';
import { packAlwaysInclude } from './always-include.ts';
import { DEFAULT_PACKERS, GIT_DIFF_PACKER } from '../files/constants.ts';
import { titleOf } from '../files/file-section.ts';
import { resolveTargetImports, type TargetSource } from './imports.ts';
import { mergeParts, readerOf, runPackerChecked, type MergedPart, type PackerHost } from './packers.ts';
import { checkPattern } from './path-safety.ts';
import { resolveGit, resolvePatterns } from './patterns.ts';
import type { SafeReader } from './safe-read.ts';
import { secretNotice } from '../secrets/secret-scan.ts';
import { renderFileList, type FileListPart, type ReadFile } from './target-files.ts';
import type { PackOptions } from './types.ts';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

const filesOf = (parts: Map<string, MergedPart>) => new Set([...parts.values()].flatMap((p) => p.files));

/** A target, normalised and resolved inside the repository by packing's first step. */
export interface Target {
  path: string;
  absolute: string;
}

/** Reads files with the safe reader; one held back (a secret, inside .git, leading outside) gets a notice (and a marker in its part). */
async function readAll(reader: SafeReader, paths: readonly string[], where: string, host: PackerHost): Promise<ReadFile[]> {
  const reads = await Promise.all(paths.map(async (path): Promise<ReadFile> => ({ path, read: await reader.read(path) })));
  for (const { path, read } of reads) {
    if (read.kind === 'secret') host.notice(secretNotice(where, path, read.rules));
    else if (read.kind === 'gitDir') host.notice(`${where}: left out ${path}: files inside .git are never packed`);
    else if (read.kind === 'outside') host.notice(`${where}: left out ${path}: it leads outside the repository`);
  }
  return reads;
}

/** The imports part: the targets' imports not packed already, under "## Imported Files". */
async function packImports(host: PackerHost, imports: string[], packed: Set<string>): Promise<FileListPart> {
  // Checked by the import resolver already; the safe reader checks again what it opens.
  const reads = await readAll(readerOf(host), imports.filter((f) => !packed.has(f)), 'imports', host);
  // An import that is a secret is left out entirely: unlike a target, nobody asked for it.
  return renderFileList(reads.filter((r) => r.read.kind !== 'secret'), '## Imported Files');
}

/** Parts by key, in prompt order; notices and warnings go to the host. */
export async function gatherParts(opts: PackOptions, host: PackerHost, targets: Target[]): Promise<Map<string, MergedPart>> {
  const { guard } = host;
  const reader = readerOf(host);
  const targetPaths = targets.map((t) => t.path);
  const context = opts.role.context;
  const lineNumbers = context.line_numbers === true;
  const include = [...strings(context.include), ...(opts.include ?? [])];
  const exclude = [...strings(context.exclude), ...(opts.exclude ?? [])].map(checkPattern);
  const resolved = resolvePatterns(include);
  for (const variable of resolved.unknownVariables) host.notice(`context: ignored unknown variable ${variable}`);
  const packers = opts.packers?.length ? opts.packers : strings(context.packers).length ? strings(context.packers) : [...DEFAULT_PACKERS];
  const gitChosen = packers.includes(GIT_DIFF_PACKER);
  const git = { ...resolveGit(context, resolved, gitChosen), ...(opts.gitRange ? { range: opts.gitRange } : {}) };
  const request = (patterns: string[], skipFiles: Iterable<string>): PackRequest => ({
    repoRoot: guard.root,
    include: patterns,
    exclude,
    skipFiles: [...skipFiles],
    targets: targetPaths,
    context: { ...context, include, exclude },
    style: opts.style ?? (context.style === 'xml' ? 'xml' : 'markdown'),
    lineNumbers,
    git,
  });

  const parts = new Map<string, MergedPart>();
  // Each target is read once: for its part and for $TARGET_IMPORTS.
  const [always, targetFiles] = await Promise.all([
    packAlwaysInclude({ guard, reader, context, env: host.env, lineNumbers }, strings(context.always_include)),
    readAll(reader, targetPaths, 'target', host),
  ]);
  const sources = targetFiles.flatMap(({ path, read }): TargetSource[] => (read.kind === 'text' ? [{ path, content: read.content }] : []));
  const wantsGit = !gitChosen && (git.staged || git.unstaged || git.changedFiles);
  const [imports, gitParts] = await Promise.all([
    resolved.targetImports ? resolveTargetImports(guard, sources) : Promise.resolve([]),
    wantsGit ? runPackerChecked(host, GIT_DIFF_PACKER, request([], [...always.files, ...targetPaths])) : undefined,
  ]);
  const target = renderFileList(targetFiles.filter((t) => !always.files.includes(t.path)), undefined, { lineNumbers });
  if (always.content) parts.set('always_include', { content: always.content, files: always.files });
  always.warnings.forEach(host.warn);
  always.notices.forEach(host.notice);
  if (target.content) parts.set('target_file', { content: target.content, files: target.files });
  if (gitParts) mergeParts(parts, gitParts);
  const importPart = await packImports(host, imports, filesOf(parts));
  if (importPart.content) parts.set('imports', { content: importPart.content, files: importPart.files });

  // Recomputed before each packer: a later packer must not repeat what an earlier one packed.
  for (const name of packers) mergeParts(parts, await runPackerChecked(host, name, request(resolved.patterns, filesOf(parts))));

  for (const [key, value] of Object.entries(opts.extraContext ?? {})) {
    const content = `## ${titleOf(key)}\n\n${value}`;
    // Like a Python dict: a key that exists keeps its place and gets the new content.
    parts.set(key, { content, files: [] });
  }
  return parts;
}
