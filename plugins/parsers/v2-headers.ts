/**
 * The v2 result parser (seed 003): `role: ...` headers, a blank line, a free-form body; the
 * acceptance matrix enforced. When the caller asks for it (ctx.legacy), free text without
 * headers is read by the legacy grammar and marked `grammar: legacy, confidence: low`.
 * Neither grammar recognised is PARSE_UNRECOGNISED, so the engine can retry with stricter
 * instructions.
 */
import { definePlugin, errors, isSupervisorError, type ParserContext } from '../../core/plugin-api/index.ts';
import { legacyGitRange, legacyIssues, legacyVerdict } from './lib/legacy-grammar.ts';
import { acceptanceViolations, expectedV2Role, V2_ROLES, type Violation } from './lib/v2-contract.ts';
import { v2ExampleAnswer, v2FormatInstructions } from './lib/v2-format.ts';
import { looksLikeV2, readV2Result } from './lib/v2-headers-grammar.ts';

function format(violations: Violation[]): string {
  return violations.map((v) => `${v.pointer || '(root)'}: ${v.message}`).join('; ');
}

/** ctx.validate, with the parser's own violations reported in the same error. */
function validate(result: Record<string, unknown>, violations: Violation[], ctx: ParserContext): Record<string, unknown> {
  let schemaViolations: Violation[] = [];
  let validated: Record<string, unknown> | undefined;
  try {
    validated = ctx.validate(result);
  } catch (error) {
    if (!isSupervisorError(error) || error.code !== 'OUTPUT_INVALID' || !violations.length) throw error;
    schemaViolations = (error.details.violations as Violation[] | undefined) ?? [];
  }
  // The parser's own message for a field says more than the schema's generic one.
  const all = [...violations, ...schemaViolations.filter((s) => !violations.some((v) => v.pointer === s.pointer))];
  if (validated && !all.length) return validated;
  throw errors.outputInvalid(`The v2 result is not acceptable: ${format(all)}`, { schema: ctx.schemaName, grammar: result.grammar, violations: all });
}

function parseV2(text: string, ctx: ParserContext): Record<string, unknown> {
  const { result, violations } = readV2Result(text);
  violations.push(...acceptanceViolations(result));
  if (typeof result.task_id === 'string' && /^\d+$/.test(result.task_id)) {
    violations.push({ pointer: '/task_id', keyword: 'pattern', message: 'task_id must be the string id of the task (e.g. a UUID), not a bare number' });
  }
  const expected = expectedV2Role(ctx.role);
  if (expected && result.role !== expected) {
    violations.push({ pointer: '/role', keyword: 'role', message: `the result is for ${String(result.role)}, but this run is for ${expected}` });
  }
  return validate(result, violations, ctx);
}

function parseLegacy(text: string, ctx: ParserContext): Record<string, unknown> {
  const role = expectedV2Role(ctx.role);
  if (!role) {
    throw errors.parseUnrecognised(
      `The legacy grammar needs to know whose result this is: the role must be one of ${V2_ROLES.join(', ')} (or extend one)`,
      { role: ctx.role?.name ?? null },
    );
  }
  const status = legacyVerdict(text);
  if (!status) {
    throw errors.parseUnrecognised('No v2 headers and no verdict phrase of the legacy grammar (e.g. "review passed", "issues found", APPROVED, FAILED) in the answer', {
      expected: v2FormatInstructions(role),
    });
  }
  const gitRange = legacyGitRange(text);
  let issues: string[] = [];
  if (status !== 'pass') {
    issues = legacyIssues(text);
    const firstLine = text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
    if (!issues.length) issues = [firstLine.slice(0, 200)];
  }
  const result = {
    role,
    status,
    ...(gitRange ? { git_range: gitRange } : {}),
    files_changed: [],
    issues,
    confidence: 'low',
    body: text.trim(),
    grammar: 'legacy',
  };
  return validate(result, [], ctx);
}

export default definePlugin({
  kind: 'parser',
  name: 'v2-headers',
  description: 'v2 result contract: role/task_id/status headers + body, acceptance matrix; legacy free text on request',
  parse(text, ctx) {
    if (looksLikeV2(text)) return parseV2(text, ctx);
    if (ctx.legacy) return parseLegacy(text, ctx);
    throw errors.parseUnrecognised(
      `The answer does not start with the v2 header line "role: ${expectedV2Role(ctx.role) ?? V2_ROLES.join('|')}" (and the legacy grammar was not asked for)`,
      { expected: v2FormatInstructions(expectedV2Role(ctx.role)) },
    );
  },
  formatInstructions: (ctx) => v2FormatInstructions(expectedV2Role(ctx.role)),
  exampleAnswer: (ctx) => v2ExampleAnswer(expectedV2Role(ctx.role)),
  defaultSchema: 'v2-result',
});
