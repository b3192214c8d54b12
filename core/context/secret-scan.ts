/**
 * Secrets stay out of prompts: every text that packing puts into a prompt (files, diffs, a
 * packer's output) is scanned with secretlint's recommended rules — the checks repomix runs
 * (private keys, cloud and API tokens, credentials in URLs, npm tokens, ...), offline and in
 * pure JavaScript, so they run inside the single binary too. What is found is left out by the
 * caller, with a notice naming the file and the rule; `context.secret_scan: false` or
 * `--no-secret-scan` turns the scan off.
 *
 * The rules are loaded on first use (the preset is a large module) and secretlint's profiler is
 * switched off: left on, it records performance marks for every rule and file, which more than
 * doubles the cost of scanning thousands of files.
 */
import { posix } from 'node:path';
import type { SecretLintCoreConfig } from '@secretlint/types';

/** What the scan found in one text: the ids of the rules that reported, sorted, each once. */
export type SecretRules = string[];

export interface SecretScanner {
  /** The rules that report a secret in `content` (empty: nothing found). `path` names the text for the rules. */
  scan(path: string, content: string): Promise<SecretRules>;
}

interface Loaded {
  lintSource: typeof import('@secretlint/core').lintSource;
  config: SecretLintCoreConfig;
}

let loading: Promise<Loaded> | undefined;

function load(): Promise<Loaded> {
  loading ??= (async () => {
    const [{ lintSource }, { creator }, { secretLintProfiler }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ]);
    secretLintProfiler.setEnabled(false);
    return { lintSource, config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] } };
  })();
  return loading;
}

/**
 * The extension the rules see: some look only at some files (the GCP rule at ".json" service
 * account keys). Never ".p12": for that one the GCP rule reads the file from disk itself, by
 * a path relative to the process's folder, past the safe reader; its text is what we scan.
 */
function extOf(path: string): string {
  const ext = posix.extname(path).toLowerCase();
  return ext === '.p12' ? '' : ext;
}

/** The scanner with secretlint's recommended rules. */
export function createSecretScanner(): SecretScanner {
  return {
    async scan(path, content) {
      // Every rule matches at least a few characters: an empty or blank text holds no secret.
      if (content.trim() === '') return [];
      const { lintSource, config } = await load();
      const result = await lintSource({ source: { filePath: path, content, contentType: 'text', ext: extOf(path) }, options: { config, noPhysicFilePath: true } });
      return [...new Set(result.messages.map((m) => m.ruleId))].sort();
    },
  };
}

/** A scanner that finds nothing: the opt-out. */
export const NO_SECRET_SCAN: SecretScanner = { scan: async () => [] };

/** The one-line notice for a text left out, naming it and the rules that found a secret in it. */
export function secretNotice(where: string, path: string, rules: readonly string[], what = ''): string {
  return `${where}: left out ${what}${path}: it looks like it holds a secret (secretlint: ${rules.join(', ')}); --no-secret-scan packs it`;
}
