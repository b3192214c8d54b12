/** The v2 answer format in words and with an example: what a retry asks the model for (seed 003). */
import { ACCEPTANCE_MATRIX, V2_ROLES, V2_STATUSES, type V2Role } from './v2-contract.ts';

const EXAMPLES: Record<V2Role, string> = {
  worker: 'role: worker\ntask_id: 7f3c2a9e\nstatus: pass\nfiles_changed: src/auth.ts, src/auth.test.ts\n\nImplemented refresh-token rotation. Tests: 12/12 passing. Self-review: clean.',
  'spec-reviewer': 'role: spec-reviewer\ntask_id: 7f3c2a9e\nstatus: gaps\nconfidence: high\nissues: missing progress reporting (requirement 3); extra --json flag not requested\n\nIssues found:\n- Missing: progress reporting — src/recovery.ts:45\n- Extra: --json flag — src/recovery.ts:12',
  'code-quality-reviewer': 'role: code-quality-reviewer\ntask_id: 7f3c2a9e\nstatus: pass\nconfidence: high\n\nCode quality review passed. Strengths: small functions, clear names. No detector findings.',
};

/** One answer the v2 contract accepts for the role: done, nothing found (replay's offline default). */
export function v2ExampleAnswer(role: V2Role | undefined): string {
  const who = role ?? 'worker';
  const headers = [`role: ${who}`, 'task_id: none', 'status: pass'];
  // Supervisor records a worker's range itself: an offline answer names no files and no range.
  if (who === 'worker') headers.push('files_changed: ');
  else headers.push('confidence: high');
  const body = who === 'worker' ? 'Offline example answer: nothing was changed.' : 'Offline example answer: no issues found.';
  return `${headers.join('\n')}\n\n${body}\n`;
}

export function v2FormatInstructions(role: V2Role | undefined): string {
  const rows = ACCEPTANCE_MATRIX.filter((row) => role === undefined || row.role === role).map(
    (row) => `- ${row.role} with status ${row.statuses.join(' or ')}: ${row.required.join(', ')}`,
  );
  return [
    'Start your answer with v2 structured headers: the very first line is',
    `\`role: ${role ?? `<${V2_ROLES.join('|')}>`}\`, then one \`key: value\` per line, then ONE blank line, then a free-form body.`,
    `Headers: role, task_id (the task id given with the task), status (${V2_STATUSES.join('|')}), git_range (<base>..<head>; optional: supervisor records the range of the commit it makes),`,
    'files_changed (comma-separated paths), issues (semicolon-separated), confidence (high|medium|low, reviewers only).',
    'Required fields:',
    ...rows,
    'No code fences around the headers, nothing before the role line.',
    '',
    'For example (use your real values):',
    '',
    EXAMPLES[role ?? V2_ROLES[0]],
  ].join('\n');
}
