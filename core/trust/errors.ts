/** Errors of the trust list (~/.supervisor/trusted.json). Codes are API. */
import { SupervisorError } from '../errors.ts';
import { nameList } from '../text/name-list.ts';

export const trustErrors = {
  fileInvalid: (file: string, why: string) =>
    new SupervisorError('TRUST_FILE', `${file} is not a valid trust list: ${why}`, {
      details: { file, why },
      hint: 'It holds {"trusted": ["/absolute/folder", ...]}; fix it, or delete it and trust your repositories again with: supervisor trust <path>',
    }),
  untrustedGates: (role: string, file: string, gates: string[], repoRoot: string) =>
    new SupervisorError('ROLE_UNTRUSTED_GATES', `Role ${role} runs gates from ${file} (${gates.map((g) => JSON.stringify(g)).join(', ')}), and this repository is not trusted to run its own commands`, {
      details: { role, file, gates },
      hint: `Read the gates, then trust the repository: supervisor trust ${repoRoot} (or --trust for one run).`,
    }),
  untrustedSetup: (role: string, file: string, commands: string[], repoRoot: string) =>
    new SupervisorError('ROLE_UNTRUSTED_SETUP', `Role ${role} runs set-up commands from ${file} (${commands.map((g) => JSON.stringify(g)).join(', ')}), and this repository is not trusted to run its own commands`, {
      details: { role, file, setup: commands },
      hint: `Read the set-up commands, then trust the repository: supervisor trust ${repoRoot} (or --trust for one run).`,
    }),
  /** A role file of an untrusted repository doing what only the user may (flags, x-replay outside, a lower sandbox). */
  untrustedRole: (code: 'ROLE_UNTRUSTED_FLAGS' | 'ROLE_UNTRUSTED_REPLAY' | 'ROLE_UNTRUSTED_SANDBOX' | 'ROLE_UNTRUSTED_COMMANDS' | 'ROLE_UNTRUSTED_CONTEXT', role: string, file: string, what: string, repoRoot: string) =>
    new SupervisorError(code, `Role ${role} from ${file} ${what}, and this repository is not trusted to choose that`, {
      details: { role, file },
      hint: `Read the role file, then trust the repository: supervisor trust ${repoRoot} (or --trust for one run); or use a role of your own (~/.supervisor/roles).`,
    }),
  untrustedPlanCommands: (file: string, commands: { pointer: string; command: string }[], repoRoot: string) =>
    new SupervisorError(
      'WORKFLOW_UNTRUSTED_COMMANDS',
      `The plan ${file} runs commands (${nameList(commands.map((c) => `${c.pointer}: ${JSON.stringify(c.command)}`), 10)}), and this repository is not trusted to run its own commands`,
      {
        details: { file, commands },
        hint: `Read them (supervisor workflow run ${file} --dry-run lists them), then trust the repository: supervisor trust ${repoRoot} (or --trust for one run).`,
      },
    ),
  tooBroad: (path: string) =>
    new SupervisorError('TRUST_PATH', `Refusing to trust ${path}: it would trust every repository under it`, {
      details: { path },
      hint: 'Trust a repository, or a folder of repositories below your home folder: supervisor trust <path>',
    }),
  notListed: (path: string, coveringEntry: string | undefined, file: string) =>
    new SupervisorError('TRUST_NOT_LISTED', `${path} is not in the trusted list (${file})${coveringEntry ? `; it is trusted through ${coveringEntry}` : ''}`, {
      details: { path, covered_by: coveringEntry ?? null, file },
      hint: coveringEntry ? `Remove the folder that covers it: supervisor trust --remove ${coveringEntry}` : 'See the trusted folders with: supervisor trust --list',
    }),
  notFolder: (path: string) =>
    new SupervisorError('TRUST_PATH', `${path} is not a folder`, { details: { path }, hint: 'Trust the folder of a repository: supervisor trust <path>' }),
};
