/** Refusals of the application layer (core/app). Codes are API. */
import { SupervisorError } from '../errors.ts';
import { nameList } from '../text/name-list.ts';

export const appErrors = {
  /** A workflow's stored plan asks to run commands, and nothing shows the user started it (SECURITY.md I4). */
  untrustedStoredPlan: (id: string, file: string, commands: { pointer: string; command: string }[], repoRoot: string) =>
    new SupervisorError(
      'WORKFLOW_UNTRUSTED_COMMANDS',
      `The workflow ${id} runs commands from its stored plan (${nameList(commands.map((c) => `${c.pointer}: ${JSON.stringify(c.command)}`), 10)}), and neither is this repository trusted nor was this plan started by you here (its source ${file})`,
      {
        details: { workflow_id: id, file, commands },
        hint: `A repository can carry workflow state. Read .supervisor/workflows/${id}/plan.json, then trust the repository: supervisor trust ${repoRoot} (or --trust for one command).`,
      },
    ),
  loosening: (id: string, changes: string[]) =>
    new SupervisorError('WORKFLOW_SETTINGS_LOOSENED', `The workflow ${id} was started with tighter settings than this command gives: ${changes.join('; ')}`, {
      details: { workflow_id: id, changes },
      hint: 'Leave those options out to keep the recorded settings, or add --loosen to loosen them on purpose (it is reported and recorded in the workflow\'s settings.json).',
    }),
  /** A file an MCP client named outside the repository (SECURITY.md: untrusted unless the server runs with --trust). */
  untrustedPath: (what: string, file: string, repoRoot: string) =>
    new SupervisorError('UNTRUSTED_PATH', `The ${what} ${file} lies outside the repository ${repoRoot}, and a path an MCP client names outside it is not yours`, {
      details: { file, repo_root: repoRoot },
      hint: 'Put it inside the repository, or start the server with: supervisor mcp --trust (files the client names are then yours).',
    }),
  settingsCorrupt: (file: string, why: string) =>
    new SupervisorError('WORKFLOW_CORRUPT', `${file} is not a valid settings file: ${why}`, { details: { file, why }, hint: 'Delete it to fall back to the command line\'s settings (then give them again).' }),
  /** `workflow discard` without --force, of a workflow holding work found nowhere else. */
  discardUnmerged: (id: string, unmerged: { name: string; why: string }[]) =>
    new SupervisorError('WORKFLOW_UNMERGED_WORK', `The workflow ${id} holds work found nowhere else: ${unmerged.map((u) => u.why).join('; ')}`, {
      details: { workflow_id: id, branches: unmerged.map((u) => u.name) },
      hint: `Hand it on first (supervisor workflow finish ${id} --into <branch>), or drop it with: supervisor workflow discard ${id} --force`,
    }),
  /** A branch of the workflow moved between being judged and being deleted (compare-and-swap). */
  discardMoved: (id: string, problem: string) =>
    new SupervisorError('WORKFLOW_DISCARD_MOVED', `A branch of the workflow ${id} moved while it was being discarded; nothing was deleted (${problem})`, {
      details: { workflow_id: id, problem },
      hint: `Look at what moved it, then run again: supervisor workflow discard ${id}`,
    }),
};
