/** What every command gets: global options, output helpers, and lazily loaded shared state. */
import { existsSync, statSync } from 'node:fs';
import { errors } from '../errors.ts';
import { dirname, join, resolve } from 'node:path';
import type { LoadedPlugins } from '../plugins/load.ts';
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
}

export interface CliContext {
  deps: CliDeps;
  options: GlobalOptions;
  /** The repository root: --repo, else the nearest folder above cwd holding .git, else cwd. */
  repoRoot: string;
  /** The plugin registry, loaded once on first use. */
  registry(): Promise<Registry>;
  /** What plugin discovery found for that registry (folders and --plugin paths), in load order. */
  pluginSources(): Promise<PluginSource[]>;
  /** Writes to stdout (results only), as given. */
  out(text: string): void;
  /** Writes human-readable text that quotes untrusted text (answers, logs) to stdout, control sequences neutralised. */
  show(text: string): void;
  /** Writes a line to stderr (notices, warnings). */
  warn(text: string): void;
  /** Progress for long work: stderr, and only when stderr is a terminal. */
  progress(text: string): void;
}

export function findRepoRoot(start: string): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(start);
    dir = parent;
  }
}

function checkedRepo(deps: CliDeps, repo: string): string {
  const dir = resolve(deps.cwd, repo);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw errors.usage(`--repo ${repo}: ${dir} is not a folder`, 'Give the folder of the repository to work on.');
  }
  return findRepoRoot(dir);
}

export function createCliContext(deps: CliDeps, options: GlobalOptions): CliContext {
  const repoRoot = options.repo ? checkedRepo(deps, options.repo) : findRepoRoot(deps.cwd);
  let loaded: Promise<LoadedPlugins> | undefined;
  const plugins = () =>
    (loaded ??= (async () => {
      const { loadPlugins } = await import('../plugins/load.ts');
      return loadPlugins({
        repoRoot,
        homeDir: deps.homeDir,
        besideBinaryDir: deps.besideBinaryDir,
        extraPaths: options.plugin,
        cwd: deps.cwd,
        userPlugins: options.userPlugins,
        importModule: deps.importModule,
        installPluginApi: deps.installPluginApi,
      });
    })());
  return {
    deps,
    options,
    repoRoot,
    registry: async () => (await plugins()).registry,
    pluginSources: async () => (await plugins()).sources,
    out: (text) => void deps.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    show: (text) => {
      const safe = sanitizeTerminal(text);
      deps.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
    },
    // Notices and progress quote untrusted text (model answers, file names): never control sequences.
    warn: (text) => void deps.stderr.write(`${sanitizeTerminal(text)}\n`),
    progress: (text) => {
      if (deps.stderr.isTTY) deps.stderr.write(`${sanitizeTerminal(text)}\n`);
    },
  };
}
