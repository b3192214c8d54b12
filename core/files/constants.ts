/**
 * The numbers and key orders of context packing, as seeds 000 (Task 2 and 4) and 002 give
 * them. Changing one changes what every role's prompt holds: treat them as API.
 */

/** 4 characters ≈ 1 token: the default, deliberately conservative estimate. */
export const CHARS_PER_TOKEN = 4;

/** Reserved for system_prompt + task + output requirements in the template flow (~1000 tokens). */
export const TEMPLATE_OVERHEAD_CHARS = 4000;

/** Per-file cap: larger files are listed, never read. */
export const MAX_FILE_SIZE = 1024 * 1024;

/** Cap on everything a packer reads for one pack. */
export const MAX_TOTAL_SIZE = 10 * 1024 * 1024;

/** Cap on `always_include`: protected from pruning, so it gets its own hard limit. */
export const MAX_ALWAYS_INCLUDE_SIZE = 2 * 1024 * 1024;

/**
 * Both flows: the prunable part keys, highest priority first (tree is pruned first). The
 * template flow follows the role's priority_order instead when it names any of these.
 */
export const PART_PRIORITY: readonly string[] = [
  'target_file',
  'git_diff',
  'changed_files',
  'imports',
  'related',
  'files',
  'tree',
];

/**
 * Template flow: `priority_order` keys that are prompt-level — the template renders them
 * itself, so they play no part in file-context pruning. Every other key names a part.
 */
export const PROMPT_LEVEL_KEYS: ReadonlySet<string> = new Set(['system_prompt', 'task_description', 'task', 'readme', 'docs', 'standards']);

/** Template flow: never pruned. */
export const FILE_CONTEXT_PROTECTED: ReadonlySet<string> = new Set(['always_include']);

/** Legacy flow: never pruned, whatever the budget. */
export const PROTECTED_KEYS: ReadonlySet<string> = new Set(['system_prompt', 'task', 'always_include']);

/** The least room worth cutting a file into at the budget line; less is left out whole. */
export const MIN_CUT_TOKENS = 64;

/** Include entries that are directives, not file patterns. */
export const SENTINEL_GIT_DIFF = 'git diff --cached';
export const SENTINEL_CHANGED_FILES = '$CHANGED_FILES';
export const VAR_TARGET = '$TARGET';
export const VAR_TARGET_IMPORTS = '$TARGET_IMPORTS';

/** The packer that answers the git sentinels (`git_diff: true`, "git diff --cached", $CHANGED_FILES). */
export const GIT_DIFF_PACKER = 'git-diff';

/** Packers used when neither the caller nor the role names any. */
export const DEFAULT_PACKERS: readonly string[] = ['glob'];

/** Text the seeds put into the packed context itself. */
export const MARKERS = {
  overheadExceedsBudget: '[WARNING: Template overhead exceeds token budget; no file context included]',
  protectedExceedsBudget: '[WARNING: Context exceeds budget even with required content only]',
  alwaysIncludeCapped: (capBytes: number) => `[WARNING: always_include capped at ${Math.floor(capBytes / 1024)}KB]`,
  fileTooLarge: '[File exceeds size limit]',
  couldNotRead: '[Could not read file]',
  /** A target that looks like it holds a secret (the notice names the rule). */
  secretLeftOut: '[Left out: it looks like it holds a secret]',
  skippedTotalCap: '[Skipped: would exceed total size cap]',
  /** After the head of a file (or a part without files) cut at the budget line. */
  truncated: (name: string, keptLines: number, totalLines: number) => `[Truncated to fit the token budget: kept ${keptLines} of ${totalLines} lines of ${name}]`,
} as const;
