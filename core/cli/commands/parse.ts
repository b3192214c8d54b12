import { defineCommand } from '../../command/command.ts';

export default defineCommand({
  command: 'parse [file]',
  describe: "Parse a CLI's raw output, validate it against an output schema, print the validated JSON",
  example: { command: '$0 parse --role reviewer answer.md', describe: "validate a saved answer against the reviewer's schema and parser" },
  builder: (y) =>
    y
      .positional('file', { type: 'string', describe: 'File holding the output (default, or -: stdin)' })
      .option('role', { type: 'string', describe: "Validate as this role's answer (a role name or a role file): its output schema, parser and grammar" })
      .option('schema', {
        type: 'string',
        describe: 'Output schema: a built-in name (plan, implementation, review, generic, llm-chat, v2-result) or a JSON Schema file',
      })
      .option('parser', { type: 'string', describe: "Parser plugin (default: the role's, else fenced-json)" })
      .option('cli', { type: 'string', describe: "The adapter whose raw output this is: its extract() pulls out the model's text first" })
      .option('legacy', { type: 'boolean', default: false, describe: 'Also accept the legacy free-text grammar (v2-headers parser)' })
      .conflicts('role', 'schema'),
  async run(args, ctx) {
    const { runParse } = await import('../parse-command.ts');
    return runParse(args, ctx);
  },
});
