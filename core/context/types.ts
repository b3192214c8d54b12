/** The public shapes of context packing (see COMMON.md "Packing"). */
import type { Registry } from '../registry.ts';
import type { Role } from '../roles/role.ts';
import type { TokenizerName } from './tokens.ts';

export interface PackOptions {
  role: Role;
  /** Absolute path of the repository root. */
  repoRoot: string;
  /** The repository may run its own tools, e.g. node_modules/.bin/repomix (core/trust). Default: not. */
  trustedRepo?: boolean;
  /** Repository-relative target paths (checked: absolute or escaping paths are refused). */
  targets: string[];
  /** Extra sections, e.g. { test_output: "..." } → "## Test Output". */
  extraContext?: Record<string, string>;
  registry: Registry;
  /** Packer plugins that gather `include`; default: the role's `context.packers`, else ["glob"]. */
  packers?: string[];
  /** Added to the role's include patterns. */
  include?: string[];
  /** Added to the role's exclude patterns. */
  exclude?: string[];
  /** Overrides the role's `context.token_budget`; neither set means no budget. */
  budgetTokens?: number;
  /** Keep room in the budget for a template around the files (default true; `pack` without a role: false). */
  reserveTemplate?: boolean;
  style?: 'markdown' | 'xml';
  tokenizer?: TokenizerName;
  /** Called with each notice as it happens (the notices also land in the result). */
  notice?: (msg: string) => void;
  /**
   * false: no secret scan (--no-secret-scan); overrides the role's `context.secret_scan`.
   * Default: scan, and leave out what looks like a secret.
   */
  secretScan?: boolean;
  /** Review this commit range instead of the staged change (the git parts; see GitWanted.range). */
  gitRange?: { base: string; head: string };
  /** Environment packers see (PATH for git / repomix); default process.env. */
  env?: Record<string, string | undefined>;
}

export interface PackedPart {
  key: string;
  /** Tokens of what the text holds of the part (counted when first read). */
  tokens: number;
  /** Bytes of what the text holds of the part. */
  bytes: number;
  /** The part's files the text holds (a cut file included). */
  files: string[];
  /** Left out whole to fit the budget. */
  pruned: boolean;
  /** Files of the part left out to fit the budget. */
  leftOut: string[];
  /** Files cut at the budget line, with a marker (for a part without files: its key). */
  truncated: string[];
}

export interface PackedContext {
  text: string;
  /** Every part that was gathered, in prompt order, pruned or not; what of it was kept. */
  parts: PackedPart[];
  /** Keys dropped to fit the budget, in the order they were dropped. */
  pruned: string[];
  /** Skipped files, fallbacks: things the user should know. */
  notices: string[];
  /** The budget could not be met, caps were hit on protected content. */
  warnings: string[];
  /**
   * Tokens of `text` (the character-class estimate for "chars", exact for "o200k"), counted when
   * first read. Without a budget packing loads no tokenizer: await prepareCounts() (or load it,
   * loadTokenizer) before reading counts.
   */
  estimatedTokens: number;
  /** Takes every count this result reports (the whole and each part) at once: reading them after needs no tokenizer. */
  prepareCounts?(): Promise<void>;
  /** The budget the parts were fitted into (after template overhead); Infinity when none. */
  budgetTokens: number;
}
