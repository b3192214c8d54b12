/**
 * Whether a repository's own code may run: its plugins (<repo>/.supervisor/plugins), its
 * templates (<repo>/.supervisor/prompts) and its tools (node_modules/.bin/repomix). A cloned
 * repository is untrusted until its user says otherwise, with `supervisor trust` (kept) or
 * `--trust` (this command only).
 */
import { realpath } from 'node:fs/promises';
import { coveredBy, readTrustList, trustFilePath } from './store.ts';
import { shellWord } from '../text/shell-word.ts';

export interface TrustDecision {
  trusted: boolean;
  /** flag: --trust; list: a folder in the trust list covers it; none: untrusted. */
  via: 'flag' | 'list' | 'none';
  /** The repository's real path. */
  path: string;
  /** The trust list entry that covers it, when via is list. */
  entry?: string;
  /** The trust list's file. */
  file: string;
}

export async function decideTrust(opts: { repoRoot: string; homeDir: string; flag: boolean }): Promise<TrustDecision> {
  const path = (await realpath(opts.repoRoot).catch(() => undefined)) ?? opts.repoRoot;
  const file = trustFilePath(opts.homeDir);
  if (opts.flag) return { trusted: true, via: 'flag', path, file };
  const entry = coveredBy(path, await readTrustList(opts.homeDir));
  return entry ? { trusted: true, via: 'list', path, entry, file } : { trusted: false, via: 'none', path, file };
}

/** The one notice for repository code left unloaded: what, and how to allow it. */
export function untrustedNotice(what: string, repoRoot: string): string {
  return `not loaded: ${what}: this repository is not trusted to run its own code. Trust it with: supervisor trust ${shellWord(repoRoot)} (or --trust for one command)`;
}
