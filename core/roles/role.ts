/** A role after loading, inheritance and validation: what every later step works from. */

/** The role's `context` mapping: known fields typed, others kept for packers. */
export interface RoleContext {
  include?: string[];
  exclude?: string[];
  always_include?: string[];
  token_budget?: number;
  git_diff?: boolean;
  priority_order?: string[];
  /** Which packer plugins gather `include` (default: ["glob"]). */
  packers?: string[];
  [key: string]: unknown;
}

/** The role's `config` mapping. */
export interface RoleConfig {
  max_retries?: number;
  /** Seconds. */
  timeout?: number;
  tdd?: boolean;
  coverage_target?: number;
  max_cost_usd?: number;
  max_turns?: number;
  [key: string]: unknown;
}

export interface Role {
  name: string;
  description: string;
  /** Adapter plugin name. */
  cli: string;
  flags: string[];
  system_prompt: string;
  context: RoleContext;
  gates: string[];
  /** Set-up commands `run` runs in its new worktree before the CLI (absent: none). */
  setup?: string[];
  config: RoleConfig;
  /** The parent named by `extends`, or null. */
  extends: string | null;
  /** Root of the extends chain; null for a base role. */
  base_role: string | null;
  /** Output schema: a name from schemas/ or a path (resolved to absolute), when the role names one. */
  output_schema: string | null;
  /**
   * Instruction files (e.g. system.md), absolute paths, resolved relative to the role file that
   * named them. Built-in ones inside the single binary are "<builtin>/roles/x.md" assets with no
   * file on disk: read them with core/prompt/instructions.ts (readInstructions, instructionPaths).
   */
  instructions: string[];
  /** The role's `sandbox` (a name or a mapping with `name`), or null: the default (none). */
  sandbox: string | Record<string, unknown> | null;
  /** Parser plugin name; null means the default (fenced-json). */
  parser: string | null;
  /** Template name the role asks for; null means chosen by base_role. */
  template: string | null;
  /** `x-` extension fields (x-model, ...). */
  extensions: Record<string, unknown>;
  /** The file that defined this role (the leaf of the chain). */
  file: string;
  /** Which file gave each top-level field of the merged role. */
  sources: Record<string, string>;
}

/** A Role with every field not given at its empty default: for ad-hoc roles and tests. */
export function createRole(fields: Pick<Role, 'name'> & Partial<Role>): Role {
  return {
    description: '',
    cli: 'replay',
    flags: [],
    system_prompt: '',
    context: {},
    gates: [],
    config: {},
    extends: null,
    base_role: null,
    output_schema: null,
    instructions: [],
    sandbox: null,
    parser: null,
    template: null,
    extensions: {},
    file: '',
    sources: {},
    ...fields,
  };
}
