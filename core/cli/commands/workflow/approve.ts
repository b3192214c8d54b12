/** `supervisor workflow approve <id> <task>...`: a person approves tasks held before their merge; the workflow continues. */
import { defineCommand } from '../../../command/command.ts';
import { decide } from '../../workflow-decide.ts';
import { driveOptions } from '../../../command/workflow-drive.ts';

export default defineCommand({
  command: 'approve <id> <tasks..>',
  describe: 'Approve tasks waiting for approval (approve: true in the plan): they are merged, and the workflow continues unless --no-resume',
  builder: (y) =>
    driveOptions(
      y
        .positional('id', { type: 'string', describe: 'The workflow id, a unique part of it, or last' })
        .positional('tasks', { type: 'string', array: true, describe: 'The task ids to approve' })
        .option('resume', { type: 'boolean', default: true, describe: 'Continue the workflow after recording the decision (--no-resume: only record it)' }),
    ),
  example: { command: '$0 workflow approve last parse docs', describe: 'approve two tasks of the newest workflow and continue it' },
  run: (args, ctx) => decide(args, ctx, 'approved'),
});
