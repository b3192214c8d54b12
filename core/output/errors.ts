/** Errors of the output area (schemas); parse errors themselves live in core/errors.ts for plugins. */
import { SupervisorError } from '../errors.ts';

export const outputErrors = {
  schemaNotFound: (name: string, known: string[]) =>
    new SupervisorError('OUTPUT_SCHEMA_NOT_FOUND', `No output schema named "${name}"`, {
      details: { name, known },
      hint: `Built-in schemas: ${known.join(', ')}. Or give the path of a JSON Schema file (ending in .json).`,
    }),
  schemaInvalid: (file: string, problem: string) =>
    new SupervisorError('OUTPUT_SCHEMA_INVALID', `Output schema ${file} is not usable: ${problem}`, {
      details: { file },
      hint: 'An output schema is a JSON file holding a JSON Schema (draft-07) that describes an object.',
    }),
  verdictFieldInvalid: (role: string, problem: string) =>
    new SupervisorError('VERDICT_FIELD_INVALID', `Role "${role}": ${problem}`, {
      details: { role },
      hint: 'Name the answer field that holds the verdict with config.verdict_field, or with "x-verdict" in the output schema (a field of the schema).',
    }),
  cliReportedFailure: (adapter: string, failure: { class: string; detail: string }) =>
    new SupervisorError('CLI_FAILED', `The ${adapter} output reports a failed attempt (${failure.class}): ${failure.detail}`, {
      details: { adapter, failure },
    }),
  noAnswerText: (adapter: string) =>
    new SupervisorError('PARSE_NO_JSON', `The ${adapter} output holds no final answer text`, {
      details: { adapter },
      hint: 'Check that --cli names the CLI that printed this output.',
    }),
} as const;
