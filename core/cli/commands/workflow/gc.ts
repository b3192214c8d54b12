/** `supervisor workflow gc`: there is none; it says where clean-up is (`supervisor gc`, `workflow discard`). */
import { defineCommand } from '../../../command/command.ts';
import { errors } from '../../../errors.ts';

export default defineCommand({
  command: 'gc',
  describe: 'Clean-up lives in supervisor gc --include-workflows (finished, merged workflows) and supervisor workflow discard <id> (one workflow)',
  example: { command: '$0 workflow gc', describe: 'says where clean-up is: supervisor gc --include-workflows --dry-run shows what it would remove' },
  async run() {
    throw errors.usage('supervisor workflow gc is not a command: clean-up is supervisor gc', 'Run: supervisor gc --include-workflows (finished workflows whose work is merged or handed on), or supervisor workflow discard <id> (one workflow, --force for unmerged work)');
  },
});
