/** `supervisor workflow reject <id> <task> --issues <text|@file>`: the issues go to the worker as its next round's feedback. */
import { defineCommand } from '../../../command/command.ts';
import { decide } from '../../workflow-decide.ts';
import { driveOptions } from '../../../command/workflow-drive.ts';

export default defineCommand({
  command: 'reject <id> <tasks..>',
  describe: "Reject a task waiting for approval: your issues become the worker's feedback for one more round; the workflow continues unless --no-resume",
  example: { command: '$0 workflow reject last parse --issues "also reject empty strings"', describe: 'send the task back to its worker with your issue' },
  builder: (y) =>
    driveOptions(
      y
        .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last' })
        .positional('tasks', { type: 'string', array: true, describe: 'The task ids to reject' })
        .option('issues', { type: 'string', describe: 'What the worker must fix: text, @file or - for stdin (one issue per line)' })
        .option('resume', { type: 'boolean', default: true, describe: 'Continue the workflow after recording the decision (--no-resume: only record it)' }),
    ),
  run: (args, ctx) => decide(args, ctx, 'rejected'),
});
