/** `supervisor workflow schema`: the JSON schema of a workflow plan file, from the binary itself (users of the binary have no schemas/ folder). */
import { defineCommand } from '../../../command/command.ts';

export default defineCommand({
  command: 'schema',
  describe: 'Print the JSON schema of a workflow plan file (every field, with its description)',
  example: { command: '$0 workflow schema > workflow.schema.json', describe: 'the plan schema, for an editor' },
  async run(_args, ctx) {
    const { readAsset } = await import('../../../assets.ts');
    const schema = readAsset('schemas/workflow.schema.json');
    if (!schema) throw new Error('the built-in schemas/workflow.schema.json is missing from this build');
    ctx.out(schema.content.trimEnd());
    return 0;
  },
});
