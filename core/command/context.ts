/** What every command gets: global options, output helpers, and lazily loaded shared state. */
import { statSync } from 'node:fs';
import { errors } from '../errors.ts';
import { basename, dirname, resolve } from 'node:path';
import type { BrokenPlugin, LoadedPlugins } from '../plugins/load.ts';
import type { TrustDecision } from '../trust/decide.ts';
import type { PluginSource } from '../plugins/discover.ts';
import type { Registry } from '../registry.ts';
import type { CliDeps } from './deps.ts';
import { sanitizeTerminal } from '../text/sanitize-terminal.ts';

export interface GlobalOptions {
  json: boolean;
  debug: boolean;
  repo?: string;
  plugin: string[];
  userPlugins: boolean;
  /** --trust: let the repository run its own code (plugins, templates, tools) for this command. */
  trust?: boolean;
}

export interface CliContext {
  deps: CliDeps;
  options: GlobalOptions;
  /** The repository root as git finds it from --repo, else from cwd (findRepoRoot); else cwd. */
  repoRoot: string;
  /** The plugin registry, loaded once on first use. */
  registry(): Promise<Registry>;
  /** What plugin discovery found for that registry (folders and --plugin paths), in load order. */
  pluginSources(): Promise<PluginSource[]>;
  /** Plugin files of the plugin folders that failed to load (each reported once on stderr). */
  brokenPlugins(): Promise<BrokenPlugin[]>;
  /** Whether the repository may run its own code (core/trust), decided once. */
  trust(): Promise<TrustDecision>;
  /** Writes to stdout (results only), as given. */
  out(text: string): void;
  /** Writes human-readable text that quotes untrusted text (answers, logs) to stdout, control sequences neutralised. */
  show(text: string): void;
  /** Writes a line to stderr (notices, warnings). */
  warn(text: string): void;
  /** Progress for long work: stderr, and only when stderr is a terminal. */
  progress(text: string): void;
}

/**
 * The repository `start` is in, as git itself finds it (`rev-parse`): an empty or broken
 * `.git` entry is no repository, and git's own discovery rules apply (GIT_DIR-style variables
 * of the caller are not followed). Inside a bare repository or a `.git` folder the answer is
 * that git dir, which `run` and `workflow run` refuse as bare; outside any repository, `start`.
 */
export async function findRepoRoot(start: string, env: Record<string, string | undefined> = process.env): Promise<string> {
  const dir = resolve(start);
  const { guardedGit, readGuardAhead } = await import('../git/git.ts');
  // One git before every command; rev-parse runs no filter or merge driver, so no guard is read
  // for it, but the folder's is read meanwhile for the gits after it.
  // In a git dir `--show-toplevel` fails after the first three answers are printed.
  readGuardAhead(dir, env);
  const asked = guardedGit(dir, ['rev-parse', '--is-bare-repository', '--is-inside-git-dir', '--absolute-git-dir', '--show-toplevel'], env, []);
  // node:crypto takes ~3 ms to load and a run needs it on its worktree's way (the run's id, the
  // worktrees folder's name, the checkout's record): loaded now, while this process waits for git.
  void import('node:crypto');
  const where = await asked;
  const [bare, inGitDir, gitDir, top] = where.stdout.trim().split('\n');
  if (!gitDir) return dir;
  if (bare === 'true' || inGitDir === 'true') return gitDir;
  return where.ok && top ? top : dir;
}

async function checkedRepo(deps: CliDeps, repo: string): Promise<string> {
  const dir = resolve(deps.cwd, repo);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw errors.usage(`--repo ${repo}: ${dir} is not a folder`, 'Give the folder of the repository to work on.');
  }
  return findRepoRoot(dir, deps.env);
}

export async function createCliContext(deps: CliDeps, options: GlobalOptions): Promise<CliContext> {
  const repoRoot = options.repo ? await checkedRepo(deps, options.repo) : await findRepoRoot(deps.cwd, deps.env);
  // Notices and progress quote untrusted text (model answers, file names): never control sequences.
  const warn = (text: string) => void deps.stderr.write(`${sanitizeTerminal(text)}\n`);
  let decided: Promise<TrustDecision> | undefined;
  const trust = () =>
    (decided ??= import('../trust/decide.ts').then(({ decideTrust }) => decideTrust({ repoRoot, homeDir: deps.homeDir, flag: options.trust === true })));
  let loaded: Promise<LoadedPlugins> | undefined;
  const plugins = () =>
    (loaded ??= (async () => {
      const { loadPlugins } = await import('../plugins/load.ts');
      const result = await loadPlugins({
        repoRoot,
        homeDir: deps.homeDir,
        besideBinaryDir: deps.besideBinaryDir,
        extraPaths: options.plugin,
        cwd: deps.cwd,
        userPlugins: options.userPlugins,
        trustedRepo: options.userPlugins && (await trust()).trusted,
        importModule: deps.importModule,
        installPluginApi: deps.installPluginApi,
      });
      await reportPluginProblems(result, repoRoot, warn);
      return result;
    })());
  return {
    deps,
    options,
    repoRoot,
    registry: async () => (await plugins()).registry,
    pluginSources: async () => (await plugins()).sources,
    brokenPlugins: async () => (await plugins()).broken,
    trust,
    // The newline apart: joined to a pack's text of megabytes it would copy the whole text first.
    out: (text) => {
      deps.stdout.write(text);
      if (!text.endsWith('\n')) deps.stdout.write('\n');
    },
    warn,
    show: (text) => {
      const safe = sanitizeTerminal(text);
      deps.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
    },
    progress: (text) => {
      if (deps.stderr.isTTY) deps.stderr.write(`${sanitizeTerminal(text)}\n`);
    },
  };
}

/** One line per broken plugin file and one for a repository's plugins left unloaded (stderr). */
async function reportPluginProblems(loaded: LoadedPlugins, repoRoot: string, warn: (text: string) => void): Promise<void> {
  for (const { error } of loaded.broken) warn(`warning: ${error.message} (skipped; ${error.code})`);
  const skipped = loaded.sources.flatMap((source) => source.untrusted ?? []);
  if (!skipped.length) return;
  const { untrustedNotice } = await import('../trust/decide.ts');
  warn(`notice: ${untrustedNotice(`plugins ${skipped.map((file) => basename(file)).join(', ')} in ${dirname(skipped[0]!)}`, repoRoot)}`);
}
