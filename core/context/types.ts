/** The public shapes of context packing (see COMMON.md "Packing"). */
import type { Registry } from '../registry.ts';
import type { Role } from '../roles/role.ts';
import type { TokenizerName } from './tokens.ts';

export interface PackOptions {
  role: Role;
  /** Absolute path of the repository root. */
  repoRoot: string;
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
  style?: 'markdown' | 'xml';
  tokenizer?: TokenizerName;
  /** Called with each notice as it happens (the notices also land in the result). */
  notice?: (msg: string) => void;
  /** Review this commit range instead of the staged change (the git parts; see GitWanted.range). */
  gitRange?: { base: string; head: string };
  /** Environment packers see (PATH for git / repomix); default process.env. */
  env?: Record<string, string | undefined>;
}

export interface PackedPart {
  key: string;
  tokens: number;
  bytes: number;
  files: string[];
  /** Dropped to fit the budget. */
  pruned: boolean;
}

export interface PackedContext {
  text: string;
  /** Every part that was gathered, in prompt order, pruned or not. */
  parts: PackedPart[];
  /** Keys dropped to fit the budget, in the order they were dropped. */
  pruned: string[];
  /** Skipped files, fallbacks: things the user should know. */
  notices: string[];
  /** The budget could not be met, caps were hit on protected content. */
  warnings: string[];
  /**
   * Tokens of `text` as the budget counts them: each part once, plus the joins. Exact for
   * "chars"; for "o200k" the parts' counts summed (a token or so above the joined text's count).
   */
  estimatedTokens: number;
  /** The budget the parts were fitted into (after template overhead); Infinity when none. */
  budgetTokens: number;
}
