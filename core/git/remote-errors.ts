/** Errors of git against a shared remote (issue 29): stable codes, exit 2. */
import { SupervisorError } from '../errors.ts';

const firstLines = (text: string) => text.trim().split('\n').slice(-3).join(' ').slice(0, 600) || 'no output';

export const remoteErrors = {
  /** `--remote` names no remote of this clone and is no URL or existing path. */
  unknown: (given: string, known: string[]) =>
    new SupervisorError('REMOTE_UNKNOWN', `--remote "${given}" is neither a remote of this clone nor a URL or path of a repository`, {
      details: { remote: given, known },
      hint: known.length ? `Remotes of this clone: ${known.join(', ')}` : 'This clone has no remote: give a URL or add one with git remote add.',
    }),
  /** The remote could not be reached (network, credentials, no such repository). */
  unreachable: (given: string, stderr: string) =>
    new SupervisorError('REMOTE_UNREACHABLE', `the remote "${given}" could not be reached: ${firstLines(stderr)}`, {
      details: { remote: given, stderr: stderr.trim() },
      hint: `Check that git can reach it without a prompt: git ls-remote ${given}`,
    }),
  /** The remote refused the push for another reason than a lost lease (a hook, a protected branch, permissions). */
  rejected: (given: string, line: string) =>
    new SupervisorError('REMOTE_REJECTED', `the remote "${given}" refused our push: ${line.trim()}`, {
      details: { remote: given, refused: line.trim() },
      hint: 'The job needs push rights to supervisor/wf/* and refs/supervisor/* (GitHub: contents: write; GitLab: a token that may push; no protection on those refs).',
    }),
  /** A state, ledger or result ref on the remote holds something we did not write. */
  stateInvalid: (ref: string, field: string, problem: string) =>
    new SupervisorError('REMOTE_STATE_INVALID', `${ref} on the remote is not state supervisor wrote: ${field} ${problem}`, {
      details: { ref, field, problem },
      hint: `Inspect it with git fetch <remote> ${ref} && git show FETCH_HEAD; delete the ref on the remote to start that state over.`,
    }),
  /** A git command of ours on local objects failed. */
  gitFailed: (what: string, stderr: string) =>
    new SupervisorError('GIT_FAILED', `git ${what} failed: ${firstLines(stderr)}`, { details: { stderr: stderr.trim() } }),
};
