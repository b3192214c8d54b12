// Property: whatever text comes in, both parsers either return an object or throw a
// SupervisorError with a parse/output code — never a TypeError, RangeError or a hang.
// Seeded (reproducible) and bounded in time (about 2 s per parser).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSupervisorError } from '../../../core/errors.ts';
import { parseOutput } from '../../../core/output/parse-output.ts';
import { loadOutputSchema } from '../../../core/output/schemas.ts';
import { parserRegistry } from '../../core/output/_registry.ts';
import { forAWhile, mutate, randomText, type Random } from './_random.ts';

const registry = parserRegistry();
const ALLOWED = new Set(['PARSE_NO_JSON', 'PARSE_INVALID_JSON', 'PARSE_UNRECOGNISED', 'OUTPUT_INVALID']);
const SCHEMAS = ['generic', 'implementation', 'review', 'plan', 'llm-chat', 'v2-result'].map((name) => loadOutputSchema(name, { baseDir: '/' }));
const ROLES = [undefined, { name: 'worker', baseRole: null }, { name: 'strict', baseRole: 'spec-reviewer' }, { name: 'reviewer', baseRole: null }];

const VALID_ANSWERS = [
  'Done.\n\n```json\n{"status":"SUCCESS","action_taken":"x"}\n```',
  'Review:\r\n```json\r\n{"status": "APPROVED", "review_status": "APPROVED", "issues": [{"severity": "minor", "description": "d"}]}\r\n```\r\n',
  '````markdown\n```json\n{"a": 1}\n```\n````\n~~~json\n{"action": "STUCK", "evidence_files": [], "summary_for_supervisor": "s"}\n~~~',
  'role: worker\ntask_id: abc-1\nstatus: pass\ngit_range: a1b2c3d..e4f5a6b\nfiles_changed: a.ts, b.ts\n\nBody.',
  'role: spec-reviewer\ntask_id: t\nstatus: gaps\nconfidence: high\nissues: one; two\n\nIssues found:\n- one\n- two',
  'Spec review FAILED.\nIssues found:\n- missing X\n\nRange 1234567..89abcde. APPROVED? not approved.',
];

/** Inputs built to hurt: long runs, many unclosed fences, deep nesting, huge lines. */
function adversarial(random: Random): string {
  const n = 1 + random.int(20_000);
  switch (random.int(9)) {
    case 0: return '`'.repeat(n) + random.pick(['json', '', '\n', ' json\n{']);
    case 1: return ' '.repeat(n) + '```json\n{}';
    case 2: return '```json\n'.repeat(1 + random.int(2000)) + random.pick(['{', '}', '```', '']);
    case 3: return '```json\n' + '['.repeat(n) + ']'.repeat(random.int(n + 1)) + '\n```';
    case 4: return '```json\n{"a": "' + '\\'.repeat(n) + '"}\n```';
    case 5: return 'role: worker\n' + 'x: y\n'.repeat(1 + random.int(3000)) + '\n' + 'not approved '.repeat(random.int(500));
    case 6: return ('- ' + 'issues found '.repeat(20) + '\n').repeat(1 + random.int(500)) + 'a'.repeat(n) + '..' + 'b'.repeat(n);
    case 7: return '```json\n{' + '"k": 1,'.repeat(1 + random.int(5000)) + '}\n```';
    default: return '\r'.repeat(n) + '\n```json\r\r\n{}\r\n```';
  }
}

function input(random: Random): string {
  const kind = random.int(3);
  if (kind === 0) return randomText(random, 400);
  if (kind === 1) return mutate(random, random.pick(VALID_ANSWERS), 1 + random.int(6));
  return adversarial(random);
}

function check(parser: string, seed: number): void {
  let returned = 0;
  const runs = forAWhile(seed, 2000, 50_000, (random) => {
    const text = input(random);
    const schema = parser === 'v2-headers' ? SCHEMAS[5]! : random.pick(SCHEMAS);
    try {
      const value = parseOutput(text, { registry, parser, schema, role: random.pick(ROLES), legacy: random.chance(0.5) });
      assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), 'an object');
      returned++;
    } catch (error) {
      if (!isSupervisorError(error) || !ALLOWED.has(error.code)) {
        assert.fail(`${parser} threw ${String((error as Error)?.stack ?? error)} on ${JSON.stringify(text.slice(0, 300))}`);
      }
    }
  });
  assert.ok(runs >= 50, `ran ${runs} inputs`);
  assert.ok(returned > 0, 'some inputs parse');
}

describe('parsers under random and adversarial input', () => {
  it('fenced-json only returns an object or throws a parse/output SupervisorError', { timeout: 60_000 }, () => check('fenced-json', 7));
  it('v2-headers only returns an object or throws a parse/output SupervisorError', { timeout: 60_000 }, () => check('v2-headers', 11));
});
