/**
 * Running packer plugins: the PackContext the core hands them (safe paths, processes,
 * notices, and other packers through the registry for fallbacks), and merging their parts
 * by key. Plugin failures are attributed to the plugin once. Whatever a packer returns is
 * checked before it reaches the prompt: a part holding a file that leads outside the
 * repository (a tool that followed a symlink) is dropped with a warning naming the file.
 */
import { runProcess } from '../process/run-process.ts';
import { callHook } from '../plugins/call-hook.ts';
import type { ContextPart, PackContext, PackRequest, PackResult } from '../plugin-api/contracts.ts';
import type { Registry } from '../registry.ts';
import { contextErrors } from './errors.ts';
import type { PathGuard } from './path-safety.ts';
import { createSafeReader, type SafeReader } from './safe-read.ts';
import { createSecretScanner, secretNotice, type SecretScanner } from '../secrets/secret-scan.ts';
import { cachedScanner } from './secret-verdicts.ts';

/** Default timeout of a packer's process (git, repomix). */
const PACKER_PROCESS_TIMEOUT_MS = 60_000;

export interface PackerHost {
  registry: Registry;
  guard: PathGuard;
  env: Record<string, string | undefined>;
  /** The repository may run its own tools (core/trust). */
  trustedRepo?: boolean;
  notice(message: string): void;
  warn(message: string): void;
  /** Finds secrets in what is packed; default: every rule of secret-scan.ts (NO_SECRET_SCAN opts out). */
  scanner?: SecretScanner;
}

const readers = new WeakMap<PackerHost, SafeReader>();

/** The host's one safe reader: every file packing reads goes through it (path checks on the open file, secret scan). */
export function readerOf(host: PackerHost): SafeReader {
  let reader = readers.get(host);
  if (!reader) readers.set(host, (reader = createSafeReader(host.guard, { scanner: scannerOf(host) })));
  return reader;
}

/** Every rule, with clean verdicts kept in the user's cache folder (secret-verdicts.ts). */
const defaultScanner = cachedScanner(createSecretScanner());

export function scannerOf(host: PackerHost): SecretScanner {
  return host.scanner ?? defaultScanner;
}

/** The context one packer runs with; `chain` holds the packers already running (loop guard). */
export function createPackContext(host: PackerHost, chain: string[]): PackContext {
  return {
    env: host.env,
    repoTrusted: host.trustedRepo === true,
    notice: host.notice,
    safePath: (relative) => host.guard.resolve(relative),
    outsideRepo: (files) => host.guard.outside(files),
    readFiles: (paths) => readerOf(host).readFiles(paths),
    scanSecrets: (path, content) => scannerOf(host).scan(path, content),
    runProcess: (request) =>
      runProcess({
        bin: request.bin,
        args: request.args,
        cwd: request.cwd ?? host.guard.root,
        env: { ...host.env, ...request.env },
        timeoutMs: request.timeoutMs ?? PACKER_PROCESS_TIMEOUT_MS,
        graceMs: 1000,
        viaLauncher: true, // capture only: git's lists and diffs, a packer tool's output
        ...(request.maxOutputBytes ? { maxOutputBytes: request.maxOutputBytes } : {}),
        ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
      }),
    runPacker: (name, request) => runPacker(host, name, request, chain),
  };
}

export async function runPacker(host: PackerHost, name: string, request: PackRequest, chain: string[] = []): Promise<PackResult> {
  if (chain.includes(name)) throw contextErrors.packerLoop([...chain, name]);
  const packer = host.registry.get('packer', name);
  const result = await callHook(packer, 'pack', () => packer.pack(request, createPackContext(host, [...chain, name])));
  return { parts: result.parts ?? [], notices: result.notices ?? [], warnings: result.warnings ?? [], secretsScanned: result.secretsScanned === true };
}

/**
 * Runs a packer for the prompt: its notices and warnings go to the host, and a part that holds
 * a file leading outside the repository is dropped (never trusted because a plugin says so).
 * Parts of a packer that did not scan for secrets itself are scanned whole: one that looks like
 * it holds a secret is dropped, with a warning naming its files and the rules.
 */
export async function runPackerChecked(host: PackerHost, name: string, request: PackRequest): Promise<ContextPart[]> {
  const result = await runPacker(host, name, request);
  result.notices.forEach(host.notice);
  result.warnings?.forEach(host.warn);
  const kept: ContextPart[] = [];
  const reader = readerOf(host);
  for (const part of result.parts) {
    // Files the safe reader read were checked on the open file (safe-read.ts); only the rest are checked here.
    const unchecked = (part.files ?? []).filter((file) => !reader.readInside(file));
    const outside = unchecked.length ? await host.guard.outside(unchecked) : [];
    if (outside.length) {
      host.warn(`${name}: dropped part "${part.key}": it holds ${outside.join(', ')}, which lead${outside.length === 1 ? 's' : ''} outside the repository`);
      continue;
    }
    const rules = result.secretsScanned ? [] : await scannerOf(host).scan(part.key, part.content);
    if (rules.length === 0) kept.push(part);
    else host.warn(secretNotice(name, `part "${part.key}"`, rules, '') + (part.files?.length ? ` (its files: ${part.files.join(', ')})` : ''));
  }
  return kept;
}

export interface MergedPart {
  content: string;
  files: string[];
}

/** Adds a packer's parts to `into`, joining parts that share a key. */
export function mergeParts(into: Map<string, MergedPart>, parts: readonly ContextPart[]): void {
  for (const part of parts) {
    if (!part.content) continue;
    const existing = into.get(part.key);
    if (existing) {
      existing.content += `\n\n${part.content}`;
      existing.files = [...new Set([...existing.files, ...(part.files ?? [])])];
    } else {
      into.set(part.key, { content: part.content, files: [...(part.files ?? [])] });
    }
  }
}
