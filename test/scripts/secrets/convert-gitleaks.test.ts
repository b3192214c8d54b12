/**
 * scripts/secrets/convert-gitleaks.mjs: Go regular expressions become JavaScript ones that match
 * the same, what cannot be converted is listed and counted (never dropped silently), and the
 * committed data names the gitleaks version and commit it was made from.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GITLEAKS } from '../../../core/secrets/secret-gitleaks-rules.ts';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';
// @ts-expect-error: a plain JavaScript module of the script, without types
import { convertGoRegex, UnsupportedRegex } from '../../../scripts/secrets/go-regex.mjs';

const convert = convertGoRegex as (src: string) => { source: string; flags: string };
const re = (src: string) => {
  const { source, flags } = convert(src);
  return new RegExp(source, flags);
};
const SCRIPT = join(import.meta.dirname, '../../../scripts/secrets/convert-gitleaks.mjs');
const DATA = join(import.meta.dirname, '../../../core/secrets/secret-gitleaks-rules.ts');

describe('convert-gitleaks: Go regular expressions', () => {
  it('turns a leading (?i) into the i flag, and spells out a case-insensitive part of a case-sensitive pattern', () => {
    assert.deepEqual(convert('(?i)abc'), { source: 'abc', flags: 'i' });
    const scoped = re('x(?i:ab[c-e])y');
    assert.ok(scoped.test('xABDy') && scoped.test('xabey'));
    assert.ok(!scoped.test('XABDy') && !scoped.test('xABDY'), 'outside the group, case counts');
    const negated = re('(?i)a(?-i:[A-Z]x)b');
    assert.ok(negated.test('AQxB') && negated.test('aQxb'));
    assert.ok(!negated.test('aqxb') && !negated.test('aQXb'), 'inside (?-i:), case counts');
  });

  it('converts POSIX classes, \\z, (?s:.) and keeps "." off newlines as Go does', () => {
    assert.ok(re('^[[:alnum:]]{3}$').test('a1Z') && !re('^[[:alnum:]]{3}$').test('a-Z'));
    assert.ok(re('ab\\z').test('xab') && !re('ab\\z').test('ab\n'));
    assert.ok(re('a(?s:.)b').test('a\nb') && !re('a.b').test('a\nb'));
    assert.ok(re('a.b').test('a\rb'), 'Go\'s "." matches a carriage return');
  });

  it('throws UnsupportedRegex with the reason for what JavaScript cannot express the same way', () => {
    for (const src of ['\\p{L}+', '\\Qa.b\\E', '(a)\\1', '(?m)^a$', 'a\\x{263a}']) {
      assert.throws(() => convert(src), (e: unknown) => e instanceof (UnsupportedRegex as ErrorConstructor) && (e as Error).message.length > 0, src);
    }
  });
});

describe('convert-gitleaks: the data', () => {
  it('names the upstream version, commit and licence it was made from', () => {
    assert.match(GITLEAKS.upstream.version, /^v\d+\.\d+\.\d+/);
    assert.match(GITLEAKS.upstream.commit, /^[0-9a-f]{40}$/);
    assert.equal(GITLEAKS.upstream.file, 'config/gitleaks.toml');
    assert.equal(GITLEAKS.license, 'MIT License');
    const text = readFileSync(DATA, 'utf8');
    assert.ok(text.includes(GITLEAKS.upstream.version) && text.includes(GITLEAKS.upstream.commit));
    assert.match(text, /Permission is hereby granted, free of charge/, 'the licence text is kept with the data');
  });

  it('counts the converted and the left-out rules, each left-out one with its reason', () => {
    const text = readFileSync(DATA, 'utf8');
    assert.match(text, new RegExp(`${GITLEAKS.rules.length} rules converted, ${GITLEAKS.skipped.length} left out`));
    assert.ok(GITLEAKS.rules.length >= 200, `${GITLEAKS.rules.length} rules`);
    for (const skipped of GITLEAKS.skipped) assert.ok(skipped.reason, skipped.id);
    for (const rule of GITLEAKS.rules) {
      assert.doesNotThrow(() => rule.regex && new RegExp(rule.regex.source, rule.regex.flags), rule.id);
      assert.ok(rule.regex || rule.path, rule.id);
    }
    const ids = GITLEAKS.rules.map((r) => r.id);
    for (const id of ['openai-api-key', 'huggingface-access-token', 'digitalocean-pat', 'github-pat', 'aws-access-token', 'private-key', 'generic-api-key']) assert.ok(ids.includes(id), id);
  });

  it('prints the count of left-out rules and lists each in the data it writes', async () => {
    const repo = await makeRepo({ LICENSE: 'MIT License\n\nCopyright (c) test\n' });
    await writeFiles(repo, {
      'config/gitleaks.toml': [
        '[allowlist]', "paths = ['''gitleaks\\.toml''']", '',
        '[[rules]]', 'id = "plain"', "regex = '''(?i)\\btok_[a-z0-9]{10}'''", 'entropy = 3', 'keywords = ["tok_"]', '',
        '[[rules]]', 'id = "unicode"', "regex = '''\\p{L}{10}'''", 'keywords = ["x"]', '',
      ].join('\n'),
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'rules');
    git(repo, 'tag', 'v9.9.9');
    const out = join(repo, 'out.ts');
    const printed = execFileSync(process.execPath, [SCRIPT, '--gitleaks', repo, '--out', out], { encoding: 'utf8' });
    assert.match(printed, /2 rules, 1 converted, 1 left out/);
    assert.match(printed, /left out unicode: \\p/);
    const written = readFileSync(out, 'utf8');
    assert.match(written, /v9\.9\.9/);
    assert.match(written, /"skipped": \[\s*\{\s*"id": "unicode"/);
  });

  it('is what the script makes of the gitleaks clone it was made from, when that clone is here', (t) => {
    const clone = '/work/corpora/gitleaks';
    const head = existsSync(join(clone, 'config/gitleaks.toml')) ? execFileSync('git', ['-C', clone, 'log', '-1', '--format=%H'], { encoding: 'utf8' }).trim() : '';
    if (head !== GITLEAKS.upstream.commit) {
      t.skip(head ? 'the clone is at another commit: converting it is an upgrade' : 'no gitleaks clone on this machine');
      return;
    }
    assert.match(execFileSync(process.execPath, [SCRIPT, '--check'], { encoding: 'utf8' }), /is up to date/);
  });
});
