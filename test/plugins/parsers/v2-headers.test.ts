import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v2Headers from '../../../plugins/parsers/v2-headers.ts';
import { ACCEPTANCE_MATRIX } from '../../../plugins/parsers/lib/v2-contract.ts';
import { parserContext, thrown } from './_context.ts';

type Role = { name: string; baseRole: string | null };
const ctx = (extra: { role?: Role; legacy?: boolean } = {}) => parserContext('v2-result', extra);
const parse = (text: string, extra: { role?: Role; legacy?: boolean } = {}) => v2Headers.parse(text, ctx(extra));
const headers = (fields: Record<string, string>, body = 'Body text.') =>
  `${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${body}`;
const pointers = (fn: () => unknown) => {
  const error = thrown(fn);
  assert.equal(error.code, 'OUTPUT_INVALID', error.message);
  return (error.details?.violations as { pointer: string }[]).map((v) => v.pointer).sort();
};

// Every example of seed 003, as written there.
const SEED_WORKER_PASS = `role: worker
task_id: abc-123-def
status: pass
git_range: a1b2c3d..e4f5g6h
files_changed: src/auth.ts, src/auth.test.ts

Implemented JWT authentication middleware with refresh token support.
Tests: 12/12 passing. Self-review: clean.`;
const SEED_WORKER_GAPS = `role: worker
task_id: abc-123-def
status: gaps
issues: test for edge case X is flaky; dependency Y not available in worktree

Implemented core logic but blocked on missing dependency.`;
const SEED_SPEC_GAPS = `role: spec-reviewer
task_id: abc-123-def
status: gaps
confidence: high
issues: missing progress reporting (spec says "report every 100 items"); extra --json flag not requested

Issues found:
- Missing: Progress reporting (spec requirement 3) — src/recovery.ts:45
- Extra: --json flag (not in spec) — src/recovery.ts:12`;

describe('v2-headers: the v2 grammar', () => {
  it("parses seed 003's worker pass example: headers normalised, body kept", () => {
    assert.deepEqual(parse(SEED_WORKER_PASS), {
      role: 'worker',
      task_id: 'abc-123-def',
      status: 'pass',
      git_range: 'a1b2c3d..e4f5g6h',
      files_changed: ['src/auth.ts', 'src/auth.test.ts'],
      issues: [],
      body: 'Implemented JWT authentication middleware with refresh token support.\nTests: 12/12 passing. Self-review: clean.',
      grammar: 'v2',
    });
  });

  it("parses seed 003's gaps examples: issues split on semicolons", () => {
    assert.deepEqual(parse(SEED_WORKER_GAPS).issues, ['test for edge case X is flaky', 'dependency Y not available in worktree']);
    const review = parse(SEED_SPEC_GAPS);
    assert.equal(review.confidence, 'high');
    assert.deepEqual(review.issues, ['missing progress reporting (spec says "report every 100 items")', 'extra --json flag not requested']);
    assert.match(String(review.body), /^Issues found:\n- Missing/);
  });

  it('parses the team-mode messages of seed 003 (headers, then a body)', () => {
    const pass = parse('role: code-quality-reviewer\ntask_id: t-9\nstatus: pass\n\nCode quality review PASSED.');
    assert.deepEqual([pass.role, pass.status, pass.body], ['code-quality-reviewer', 'pass', 'Code quality review PASSED.']);
    const noBody = parse('role: spec-reviewer\ntask_id: t-9\nstatus: pass\nconfidence: high');
    assert.equal(noBody.body, '');
  });

  it('accepts every status for every role when the matrix is met', () => {
    for (const role of ['worker', 'spec-reviewer', 'code-quality-reviewer']) {
      for (const status of ['pass', 'gaps', 'error']) {
        const fields: Record<string, string> = { role, task_id: 'task-1', status };
        if (role === 'worker' && status === 'pass') fields.git_range = 'abc1234..def5678';
        if (status !== 'pass') fields.issues = 'one; two';
        const result = parse(headers(fields));
        assert.deepEqual([result.role, result.status], [role, status]);
      }
    }
  });

  it('normalises: case of status and confidence, dashes in names, CRLF, empty lists, unknown headers kept', () => {
    const result = parse(
      '\ufeff\r\nrole: worker  \r\ntask_id: T-1\r\nStatus: PASS\r\ngit-range: abc1234..def5678\r\nfiles-changed: a.ts,, b.ts ,\r\nissues: none\r\nconfidence: Medium\r\nx-run: 42\r\n\r\nDone.\r\n',
    );
    assert.deepEqual(result, {
      role: 'worker', task_id: 'T-1', status: 'pass', git_range: 'abc1234..def5678', files_changed: ['a.ts', 'b.ts'],
      issues: [], confidence: 'medium', extra_headers: { x_run: '42' }, body: 'Done.', grammar: 'v2',
    });
  });

  it('a line that is not "key: value" before the blank line starts the body', () => {
    const result = parse('role: spec-reviewer\ntask_id: t\nstatus: pass\nSpec compliant, all 5 requirements met.\nNote: nothing else.');
    assert.equal(result.body, 'Spec compliant, all 5 requirements met.\nNote: nothing else.');
    assert.equal(result.extra_headers, undefined);
  });
});

describe('v2-headers: the acceptance matrix', () => {
  for (const row of ACCEPTANCE_MATRIX) {
    for (const status of row.statuses) {
      it(`${row.role} + ${status} requires ${row.required.join(', ')}`, () => {
        const complete: Record<string, string> = { role: row.role, task_id: 'task-7', status, git_range: 'abc1234..def5678', issues: 'a problem' };
        assert.equal(parse(headers(complete)).status, status);
        for (const field of row.required) {
          const fields = { ...complete };
          delete fields[field];
          assert.ok(pointers(() => parse(headers(fields))).includes(`/${field}`), `missing ${field} is refused`);
        }
        for (const field of ['git_range', 'issues'].filter((f) => !row.required.includes(f))) {
          const fields = { ...complete };
          delete fields[field];
          assert.equal(parse(headers(fields)).status, status, `${field} is optional here`);
        }
      });
    }
  }

  it("a worker's pass without git_range is accepted: supervisor commits and records the range (a deviation from seed 003)", () => {
    const result = parse(headers({ role: 'worker', task_id: 't-1', status: 'pass', files_changed: 'a.ts' }));
    assert.deepEqual([result.status, result.git_range, result.files_changed], ['pass', undefined, ['a.ts']]);
  });

  it('an empty issues list does not satisfy gaps or error', () => {
    assert.deepEqual(pointers(() => parse(headers({ role: 'spec-reviewer', task_id: 't', status: 'gaps', issues: 'none' }))), ['/issues']);
    assert.deepEqual(pointers(() => parse(headers({ role: 'spec-reviewer', task_id: 't', status: 'error', issues: ' ; ' }))), ['/issues']);
  });

  it('reports every missing or invalid field at once', () => {
    const violations = pointers(() => parse(headers({ role: 'worker', status: 'done', confidence: 'sure' })));
    assert.deepEqual(violations, ['/confidence', '/status', '/task_id']);
  });

  it('task_id is a string id, not a bare number (seed 003)', () => {
    const error = thrown(() => parse(headers({ role: 'spec-reviewer', task_id: '42', status: 'pass' })));
    assert.equal(error.code, 'OUTPUT_INVALID');
    assert.match(error.message, /\/task_id: task_id must be the string id/);
    assert.equal(parse(headers({ role: 'spec-reviewer', task_id: '6f1c-42', status: 'pass' })).task_id, '6f1c-42');
  });

  it('refuses a header given twice and a malformed git range', () => {
    assert.deepEqual(pointers(() => parse('role: spec-reviewer\ntask_id: t\nstatus: pass\nstatus: gaps\n\nx')), ['/issues', '/status']);
    assert.deepEqual(pointers(() => parse(headers({ role: 'worker', task_id: 't', status: 'pass', git_range: 'abc1234 to def5678' }))), ['/git_range']);
  });

  it('refuses a result that names another role than the one the run is for', () => {
    const text = headers({ role: 'worker', task_id: 't', status: 'pass', git_range: 'a1..b2' });
    assert.deepEqual(pointers(() => parse(text, { role: { name: 'spec-reviewer', baseRole: null } })), ['/role']);
    assert.deepEqual(pointers(() => parse(text, { role: { name: 'strict-spec', baseRole: 'spec-reviewer' } })), ['/role']);
    assert.equal(parse(text, { role: { name: 'my-worker', baseRole: 'worker' } }).role, 'worker');
    assert.equal(parse(text, { role: { name: 'custom', baseRole: null } }).role, 'worker', 'no expectation for non-v2 roles');
  });
});

describe('v2-headers: recognition and the legacy grammar', () => {
  const reviewer = { name: 'spec-reviewer', baseRole: null };
  const worker = { name: 'worker', baseRole: null };

  it('only a first line "role: <v2 role>" is v2; anything else is PARSE_UNRECOGNISED unless legacy is asked for', () => {
    for (const text of ['Spec review passed.', 'role: planner\ntask_id: t\nstatus: pass\n\nx', 'Role: worker\nstatus: pass', 'intro\nrole: worker\ntask_id: t\nstatus: pass', '', '```\nrole: worker\n```']) {
      const error = thrown(() => parse(text, { role: reviewer }));
      assert.equal(error.code, 'PARSE_UNRECOGNISED', text);
    }
  });

  it('v2 headers win over legacy phrases even when legacy is on', () => {
    const result = parse(headers({ role: 'spec-reviewer', task_id: 't', status: 'gaps', issues: 'x' }, 'Review passed? No: APPROVED later.'), { role: reviewer, legacy: true });
    assert.deepEqual([result.grammar, result.status, result.confidence], ['v2', 'gaps', undefined]);
  });

  it('legacy: verdict phrases give the status, marked grammar legacy and confidence low', () => {
    const cases: Array<[string, string]> = [
      ['Spec review passed. All good.', 'pass'],
      ['Spec compliant — all 5 requirements met.', 'pass'],
      ['Assessment: APPROVED', 'pass'],
      ['Code quality review PASSED.', 'pass'],
      ['Spec review FAILED. Issues:\n- [Issue 1]\n- [Issue 2]', 'gaps'],
      ['Issues found: missing progress reporting', 'gaps'],
      ['The change is not approved yet.', 'gaps'],
      ['Not spec compliant: requirement 3 is missing.', 'gaps'],
      ['Review loop exceeded after 3 rounds.', 'error'],
      ['Good structure, but issues found:\n- a', 'gaps'],
      ['APPROVED in part, but the review loop exceeded its limit.', 'error'],
    ];
    for (const [text, status] of cases) {
      const result = parse(text, { role: reviewer, legacy: true });
      assert.deepEqual([result.status, result.grammar, result.confidence, result.role], [status, 'legacy', 'low', 'spec-reviewer'], text);
      assert.equal(result.body, text.trim());
    }
  });

  it('legacy: lowercase "failed"/"approved" in prose are not verdicts, and no phrase is PARSE_UNRECOGNISED', () => {
    assert.equal(thrown(() => parse('12 passed, 0 failed; the approved design was kept.', { role: reviewer, legacy: true })).code, 'PARSE_UNRECOGNISED');
    assert.equal(thrown(() => parse('Here is what I did.', { role: worker, legacy: true })).code, 'PARSE_UNRECOGNISED');
  });

  it('legacy: the last <hash>..<hash> is the git range', () => {
    const result = parse('Implementation complete.\nFirst try 1234567..89abcde, final range a1b2c3d4..e5f6a7b8.\nVersion 1.2..1.3 is not a range.', { role: worker, legacy: true });
    assert.deepEqual([result.status, result.git_range], ['pass', 'a1b2c3d4..e5f6a7b8']);
    assert.equal(parse('Implementation complete.', { role: worker, legacy: true }).git_range, undefined);
  });

  it('legacy: issues come from the list under an issues heading, else from every list item', () => {
    const underHeading = parse('Review FAILED.\n\nStrengths:\n- clear names\n\nIssues found:\n\n1. Missing test for X\n2) Leaks a file handle — src/a.ts:12\n\nThanks.', { role: reviewer, legacy: true });
    assert.deepEqual(underHeading.issues, ['Missing test for X', 'Leaks a file handle — src/a.ts:12']);
    const anyList = parse('Changes requested.\n* one\n+ two', { role: reviewer, legacy: true });
    assert.deepEqual(anyList.issues, ['one', 'two']);
    const noList = parse('Task blocked on missing credentials for the API.', { role: worker, legacy: true });
    assert.deepEqual(noList.issues, ['Task blocked on missing credentials for the API.']);
    assert.deepEqual(parse('Review passed.\n- nice tests', { role: reviewer, legacy: true }).issues, [], 'a pass has no issues');
  });

  it('legacy: the role comes from the run (a v2 role or one extending it); otherwise it is refused', () => {
    assert.equal(parse('Implementation complete.', { role: { name: 'fast-worker', baseRole: 'worker' }, legacy: true }).role, 'worker');
    assert.equal(thrown(() => parse('Implementation complete.', { role: { name: 'reviewer', baseRole: null }, legacy: true })).code, 'PARSE_UNRECOGNISED');
    assert.equal(thrown(() => parse('Implementation complete.', { legacy: true })).code, 'PARSE_UNRECOGNISED');
  });
});

describe('v2-headers: format instructions for a stricter retry', () => {
  for (const role of ['worker', 'spec-reviewer', 'code-quality-reviewer']) {
    it(`tells a ${role} the exact format, and its example parses`, () => {
      const text = v2Headers.formatInstructions!(ctx({ role: { name: role, baseRole: null } }));
      assert.match(text, new RegExp(`role: ${role}`));
      for (const row of ACCEPTANCE_MATRIX.filter((r) => r.role === role)) assert.ok(text.includes(row.required.join(', ')));
      const example = text.slice(text.indexOf('For example (use your real values):') + 36).trim();
      assert.equal(parse(example, { role: { name: role, baseRole: null } }).role, role);
    });
  }
});
