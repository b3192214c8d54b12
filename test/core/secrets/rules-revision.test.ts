/**
 * Kept scan verdicts are valid for one revision of the rules (SECRET_RULES_REVISION): this test
 * pins the rules' sources to the revision, so a changed rule cannot ship with old verdicts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SECRET_RULES_REVISION } from '../../../core/secrets/secret-scan.ts';

/** Every file whose change can change a verdict. */
const RULE_SOURCES = ['secret-gitleaks-rules.ts', 'secret-generic.ts', 'secret-keywords.ts', 'secret-patterns.ts', 'secret-rules.ts', 'secret-rule-types.ts', 'secret-scan.ts', 'secret-values.ts'];

/** The revision and the sources' digest it was set for. Change both together. */
const PINNED = { revision: '2026-11-28.2', sources: 'df672398e41f9557a2c5fa852ef25a98eecd34e6de383593bb6c6c748d8542b9' };

function sourcesDigest(): string {
  const hash = createHash('sha256');
  for (const name of RULE_SOURCES) {
    // The revision's own line is left out, so changing it alone does not change the digest.
    const text = readFileSync(new URL(`../../../core/secrets/${name}`, import.meta.url), 'utf8').replace(/^export const SECRET_RULES_REVISION = .*$/m, '');
    hash.update(name).update('\0').update(text).update('\0');
  }
  return hash.digest('hex');
}

describe('the secret rules revision', () => {
  it('changes with the rules: after a change to core/secrets, set a new SECRET_RULES_REVISION and pin it here', () => {
    const digest = sourcesDigest();
    assert.equal(PINNED.revision, SECRET_RULES_REVISION, 'PINNED.revision must be SECRET_RULES_REVISION');
    assert.equal(digest, PINNED.sources, `core/secrets changed: give SECRET_RULES_REVISION a new value, then set PINNED = { revision: <it>, sources: '${digest}' }`);
  });
});
