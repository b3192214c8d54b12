/**
 * `supervisor workflow <subcommand>`: plans as DAGs of tasks. One file per subcommand in
 * ./workflow/; adding one is an import and an entry in the list.
 */
import { defineCommand } from '../../command/command.ts';
import approve from './workflow/approve.ts';
import check from './workflow/check.ts';
import finish from './workflow/finish.ts';
import list from './workflow/list.ts';
import logs from './workflow/logs.ts';
import resume from './workflow/resume.ts';
import retry from './workflow/retry.ts';
import show from './workflow/show.ts';
import run from './workflow/run.ts';
import status from './workflow/status.ts';
import task from './workflow/task.ts';
import plan from './workflow/plan.ts';
import reject from './workflow/reject.ts';
import exportPipeline from './workflow/export.ts';
import discard from './workflow/discard.ts';
import gcPointer from './workflow/gc.ts';
import schema from './workflow/schema.ts';

export default defineCommand({
  command: 'workflow',
  describe: 'Check, plan and run workflows: plans of tasks run as a DAG, each implemented, reviewed and merged',
  subcommands: [check, plan, run, resume, retry, status, list, logs, show, approve, reject, finish, discard, task, exportPipeline, schema, gcPointer],
});
