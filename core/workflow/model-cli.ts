/**
 * Which CLI runs a model: a task that names a model (`**Model:** opus`, `model: gpt-5`) and no
 * CLI gets the adapter this table maps the model to. A plan's `models` (glob → adapter name)
 * are tried first, in their order, then the built-in table. Matching ignores case.
 */
import picomatch from 'picomatch';

/** The built-in table, in order: the first pattern that matches wins. */
export const BUILTIN_MODEL_CLIS: readonly (readonly [pattern: string, cli: string])[] = [
  ['opus', 'claude'],
  ['sonnet', 'claude'],
  ['haiku', 'claude'],
  ['claude-*', 'claude'],
  ['gpt-*', 'codex'],
  ['o3', 'codex'],
  ['o3-*', 'codex'],
  ['o4*', 'codex'],
  ['codex-*', 'codex'],
  ['gemini-*', 'gemini'],
];

function matches(pattern: string, model: string): boolean {
  return picomatch.isMatch(model, pattern, { nocase: true, dot: true });
}

/** The adapter name for `model`: the plan's overrides first, then the built-in table; null when none matches. */
export function cliForModel(model: string, overrides: Record<string, string>): string | null {
  for (const [pattern, cli] of Object.entries(overrides)) if (matches(pattern, model)) return cli;
  for (const [pattern, cli] of BUILTIN_MODEL_CLIS) if (matches(pattern, model)) return cli;
  return null;
}
