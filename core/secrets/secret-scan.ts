/**
 * Secrets stay out of prompts (SECURITY.md I5): every text that packing puts into a prompt
 * (files, diffs, a packer's output) is scanned, and what is found is left out by the caller,
 * with a notice naming the file and the rules; `context.secret_scan: false` or
 * `--no-secret-scan` turns the scan off. The rules: gitleaks' default rule set, converted to
 * data (secret-gitleaks-rules.ts, from scripts/secrets/convert-gitleaks.mjs, run by
 * secret-rules.ts), our generic assignment rules (secret-generic.ts) and our formats
 * (secret-patterns.ts). Source code is scanned by the rules of token formats and strict
 * assignments only, not by the generic ones (see `SecretRule.confidence`).
 *
 * Fast because most texts hold none of the rules' keywords: one pass of the keyword index
 * (secret-keywords.ts) over a text finds which rules can report on it, and only those run.
 */
import { GENERIC_RULES, isCode } from './secret-generic.ts';
import { KeywordIndex } from './secret-keywords.ts';
import { SECRET_PATTERNS } from './secret-patterns.ts';
import { gitleaksRules, type SecretRule } from './secret-rules.ts';

/**
 * The rules' revision: kept verdicts (core/context/secret-verdicts.ts) are valid for one
 * revision only. Change it with any rule or rule data (gitleaks' included);
 * test/core/secrets/rules-revision.test.ts fails until it is changed.
 */
export const SECRET_RULES_REVISION = '2026-11-28.2';

/** What the scan found in one text: the ids of the rules that reported, sorted, each once. */
export type SecretRules = string[];

export interface SecretScanner {
  /**
   * The rules that report a secret in `content` (empty: nothing found). `path` names the text for
   * the rules; `bytes`, when given, are the file `content` was decoded from (a cache of verdicts
   * keys on them rather than encode the text again), lent until the answer: the reader reuses them.
   */
  scan(path: string, content: string, bytes?: Uint8Array): Promise<SecretRules>;
  /** Keeps what the scanner learned for the next command (a cache of verdicts); called once a pack is done. */
  save?(): void;
}

export interface SecretEngine {
  readonly rules: readonly SecretRule[];
  /** The ids of the rules that find a secret in `content`, sorted, each once. */
  scan(path: string, content: string): string[];
}

/** Every rule of the scan, in the order: ours, then gitleaks'. */
export function allSecretRules(): SecretRule[] {
  return [...SECRET_PATTERNS, ...GENERIC_RULES, ...gitleaksRules()];
}

/**
 * The scan over `rules`, with their keywords in one index: a text's words found lead to the
 * rules that name them, so a text runs only the rules that can report on it (and those
 * naming no keyword), not a test per rule.
 */
export function secretEngine(rules: readonly SecretRule[] = allSecretRules()): SecretEngine {
  const words = [...new Set(rules.flatMap((r) => r.keywords))];
  const position = new Map(words.map((w, i) => [w, i]));
  const index = new KeywordIndex(words);
  const rulesOf: number[][] = words.map(() => []);
  const always: number[] = [];
  rules.forEach((rule, i) => {
    if (rule.keywords.length === 0) always.push(i);
    for (const word of rule.keywords) rulesOf[position.get(word)!]!.push(i);
  });
  return {
    rules,
    scan(path, content) {
      if (!/\S/.test(content)) return [];
      const chosen = new Uint8Array(rules.length);
      for (const i of always) chosen[i] = 1;
      for (const word of index.find(content)) for (const i of rulesOf[word]!) chosen[i] = 1;
      const text = { path, content, code: isCode(path) };
      const ids = new Set<string>();
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        if (chosen[i] === 0 || ids.has(rule.id) || (text.code && rule.confidence === 'generic')) continue;
        if (rule.found(text)) ids.add(rule.id);
      }
      return [...ids].sort();
    },
  };
}

let shared: SecretEngine | undefined;

/** The scanner with every rule (built once, on first use). */
export function createSecretScanner(): SecretScanner {
  return {
    async scan(path, content) {
      shared ??= secretEngine();
      return shared.scan(path, content);
    },
  };
}

/** A scanner that finds nothing: the opt-out. */
export const NO_SECRET_SCAN: SecretScanner = { scan: async () => [] };

/** The one-line notice for a text left out, naming it and the rules that found a secret in it. */
export function secretNotice(where: string, path: string, rules: readonly string[], what = ''): string {
  return `${where}: left out ${what}${path}: it looks like it holds a secret (${rules.join(', ')}); --no-secret-scan packs it`;
}
