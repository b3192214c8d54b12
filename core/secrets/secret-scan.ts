/**
 * Secrets stay out of prompts: every text that packing puts into a prompt (files, diffs, a
 * packer's output) is scanned with secretlint's recommended rules — the checks repomix runs
 * (private keys, cloud and API tokens, credentials in URLs, npm tokens, ...), offline and in
 * pure JavaScript, so they run inside the single binary too — and beside them the formats that
 * preset misses (secret-patterns.ts: EC/Ed25519/encrypted keys, key bodies in a diff hunk,
 * Azure, SendGrid, Google, PyPI, JWT, Discord, Docker, Twilio, `.env`-style assignments under
 * any file name). What is found is left out by the
 * caller, with a notice naming the file and the rule; `context.secret_scan: false` or
 * `--no-secret-scan` turns the scan off.
 *
 * The rules are loaded on first use (the preset is a large module) and secretlint's profiler is
 * switched off: left on, it records performance marks for every rule and file, which more than
 * doubles the cost of scanning thousands of files. Most of what is left is secretlint's set-up
 * for each text (27 rule contexts), so a text that no rule can report on skips it: see
 * `mayHoldSecret`, a necessary condition read off the rules of the pinned preset.
 */
import { posix } from 'node:path';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { matchSecretPatterns } from './secret-patterns.ts';

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

/**
 * For @secretlint/secretlint-rule-preset-recommend 13.0.7 (the lock file's; a test fails on any
 * other version or rule list, so an upgrade reads the rules again): every scanner rule reports only where one of its regular expressions
 * matches the text, and each of those matches contains one of these, matched without case
 * (a superset: the rules' own case-insensitive patterns fold ASCII only, as this does):
 * aws (secret access key; the ID rules are off by default) `secret_?access_?key`; npm
 * `x-oauth-basic`, `_authToken=`, `npm_`; slack `xox?-`/`xapp-`, `hooks.slack.com`; basicauth
 * `://user:password@` (the rule's own character classes); openai `T3BlbkFJ`; anthropic
 * `sk-ant-api0`; groq `gsk_`; huggingface `hf_`; linear `lin_api_`; notion `ntn_`; privatekey
 * `PRIVATE KEY`; sendgrid `SG.`; shopify `shp??_`; stripe `k_live_`/`k_test_`; github `gh?_`,
 * `github_pat_`; gitlab `glpat-`; grafana `glc_`, `glsa_`; 1password `ops_ey`; database
 * connection strings `mongodb`, `mysql`, `postgres`; hashicorp vault `hv?.`; vercel `vc?_`;
 * databricks `dapi`; docker `dckr_pat_`; figma `figd_`; cloudflare `cfk_`/`cfut_`/`cfat_`;
 * tailscale `tskey-`. filter-comments only withdraws reports.
 */
const RULE_LITERALS = new RegExp(
  [
    'secret_?access_?key',
    'x-oauth-basic', '_authtoken=', 'npm_',
    'xox[bpaor]-', 'xapp-', 'hooks\\.slack\\.com',
    ':\\/\\/[-a-z0-9_]{1,256}:[-a-z0-9_]{1,256}@',
    't3blbkfj', 'sk-ant-api0', 'gsk_', 'hf_', 'lin_api_', 'ntn_', 'private key', 'sg\\.',
    'shp(?:pa|ca|at|ss)_', '[sr]k_(?:live|test)_', 'gh[pousr]_', 'github_pat_', 'glpat-', 'glc_', 'glsa_', 'ops_ey',
    'mongodb', 'mysql', 'postgres', 'hv[sbr]\\.', 'vc[piark]_', 'dapi', 'dckr_pat_', 'figd_', 'cfk_', 'cfut_', 'cfat_', 'tskey-',
  ].join('|'),
  'i',
);

/**
 * The GCP rule looks at ".json" files only, and reports a JSON object with "private_key_id" and
 * "private_key" keys: in the raw text those names appear as they are, or spelled with a JSON
 * "\\u" escape.
 */
const GCP_JSON = /private_key|\\u/;

/** False only when no rule of the preset can report on `content` (see RULE_LITERALS); true means "scan it". */
export function mayHoldSecret(ext: string, content: string): boolean {
  return RULE_LITERALS.test(content) || (ext === '.json' && GCP_JSON.test(content));
}

/** The scanner with secretlint's recommended rules and the patterns of secret-patterns.ts. */
export function createSecretScanner(): SecretScanner {
  return {
    async scan(path, content) {
      const ext = extOf(path);
      const patterns = matchSecretPatterns(content, ext);
      if (!mayHoldSecret(ext, content)) return patterns;
      const { lintSource, config } = await load();
      const result = await lintSource({ source: { filePath: path, content, contentType: 'text', ext }, options: { config, noPhysicFilePath: true } });
      return [...new Set([...result.messages.map((m) => m.ruleId), ...patterns])].sort();
    },
  };
}

/** A scanner that finds nothing: the opt-out. */
export const NO_SECRET_SCAN: SecretScanner = { scan: async () => [] };

/** The one-line notice for a text left out, naming it and the rules that found a secret in it. */
export function secretNotice(where: string, path: string, rules: readonly string[], what = ''): string {
  return `${where}: left out ${what}${path}: it looks like it holds a secret (${rules.join(', ')}); --no-secret-scan packs it`;
}
