/**
 * The data every template sees as `it`. This is the contract for project templates in
 * .supervisor/prompts/: keys are only ever added, never renamed.
 */
import { inlinePath } from '../files/file-section.ts';
import { DEFAULT_PARSER } from '../output/parse-output.ts';
import type { OutputSchema } from '../output/schemas.ts';
import type { Role } from '../roles/role.ts';
import type { InstructionText } from './instructions.ts';
import { describeSchema, type SchemaField } from './schema-view.ts';

export interface TemplateData {
  /** The merged role: it.role.system_prompt, it.role.config.tdd, it.role.gates, ... */
  role: Role;
  /** The user's task, verbatim. Data, never template code. */
  task: string;
  /** The packed file context (target files, diffs, files, extra context), already fitted to the budget. */
  context: string;
  /** Repository-relative target paths, each on one line (control characters escaped). */
  targets: string[];
  /** The extra context given with --context (already part of `context`; here for custom layouts). */
  extraContext: Record<string, string>;
  /** Instruction files rendered into the prompt; empty when the CLI takes them as files. */
  instructions: InstructionText[];
  /** The output parser's name: "fenced-json" (default) or another parser plugin. */
  parser: string;
  /** The answer format the parser asks for, in its own words (core/output answerFormat). */
  outputFormat: string;
  outputSchema: {
    name: string;
    /** The raw JSON Schema. */
    schema: Record<string, unknown>;
    fields: SchemaField[];
    /** A filled-in example answer, pretty JSON. */
    example: string;
    /** Whether top-level fields beyond the listed ones are accepted. */
    openObject: boolean;
  };
}

export function templateData(opts: {
  role: Role;
  task: string;
  context: string;
  targets: string[];
  extraContext: Record<string, string>;
  instructions: InstructionText[];
  outputSchema: OutputSchema;
  outputFormat: string;
}): TemplateData {
  const view = describeSchema(opts.outputSchema.schema);
  return {
    role: opts.role,
    task: opts.task,
    context: opts.context,
    targets: opts.targets.map(inlinePath),
    extraContext: { ...opts.extraContext },
    instructions: opts.instructions,
    parser: opts.role.parser ?? DEFAULT_PARSER,
    outputFormat: opts.outputFormat,
    outputSchema: { name: opts.outputSchema.name, schema: opts.outputSchema.schema, ...view },
  };
}
