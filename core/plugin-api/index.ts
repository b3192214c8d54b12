/**
 * The public plugin API: what a plugin file gets from `import ... from 'supervisor/plugin'`.
 * Built-in plugins import this module too, and nothing else from the core.
 */
import type { Plugin, PluginKind, Metrics } from './contracts.ts';

export type * from './contracts.ts';
export { PLUGIN_KINDS } from './contracts.ts';
export { SupervisorError, errors, isSupervisorError } from '../errors.ts';
export { exampleFromSchema } from './schema-example.ts';
// For plan readers: the review levels of seed 003's plans and the reviewer roles each means.
export { REVIEW_LEVELS, isReviewLevel, reviewersForLevel, type ReviewLevel } from './review-levels.ts';
// For packers: the core's own renderer, limits, binary test and path and PATH helpers, so that
// every packer lays files out and caps them the way the core does.
export { renderFence, renderFileSection, renderFiles, looksBinary, type FileText } from '../files/file-section.ts';
export { MAX_FILE_SIZE, MAX_TOTAL_SIZE } from '../files/constants.ts';
export { toPosix } from '../files/posix-path.ts';
export { secretNotice } from '../secrets/secret-scan.ts';
export { DEFAULT_IGNORED_FOLDERS, isDefaultIgnored, isIgnoredFileName } from '../files/default-ignores.ts';
export { gitListedFiles } from '../git/git-files.ts';
export { which } from '../process/which.ts';
export { limitCgroup, type Cgroup, type CgroupLimits } from '../process/cgroup.ts';
// For sandboxes that keep a process of their own: whose child a process is (/proc).
export { parentOf } from '../process/tagged-processes.ts';
// For packers that run git: the arguments that keep it from running the repository's hooks, filters, merge drivers or pager.
export { gitSafetyArgs } from '../git/git.ts';
// For sandboxes and adapters: the admin and common git folders of a worktree the core did not make.
export { gitDirs } from '../git/git-dirs.ts';

/**
 * Declares a plugin. An identity function: it exists so TypeScript checks the plugin's hooks
 * against its `kind`. The file's default export must be its result.
 */
export function definePlugin<K extends PluginKind>(plugin: Plugin<K> & { kind: K }): Plugin<K> {
  return plugin;
}

/** Metrics with every field unknown; adapters fill in what their CLI reports. */
export function emptyMetrics(): Metrics {
  return {
    inputTokens: null,
    outputTokens: null,
    cachedTokens: null,
    costUsd: null,
    durationMs: null,
    turns: null,
    sessionId: null,
    model: null,
  };
}
