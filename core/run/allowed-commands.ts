/**
 * What the CLI may run besides editing: the role's `allowed_commands` and `--allow-command`,
 * checked once before a run starts. Any command ("*") is full autonomy and is refused without a
 * sandbox; an adapter that cannot map the list to its CLI's permissions says so in a notice.
 * Each value must be a command prefix of plain words (SECURITY.md, "Allowed commands"): a value
 * such as `x:*),Bash,Bash(y` would otherwise become a bare `Bash` rule in claude's list.
 */
import { errors } from '../errors.ts';
import type { AdapterPlugin } from '../plugin-api/contracts.ts';
import type { Role } from '../roles/role.ts';
import { sandboxErrors } from '../sandbox/errors.ts';
import { DEFAULT_SANDBOX } from '../sandbox/policy.ts';

export const ANY_COMMAND = '*';

/** A word of a command: no quotes, brackets, commas, globs, `$` or other shell syntax. */
const WORD = '[A-Za-z0-9._/@%+=:-]+';
const PLAIN_COMMAND = new RegExp(`^(?!-)${WORD}( ${WORD})*$`);

/** Whether `value` (trimmed) is an allowed command we hand a CLI: plain words, or "*" alone. */
export function isPlainCommand(value: string): boolean {
  return value === ANY_COMMAND || (value.length <= 200 && PLAIN_COMMAND.test(value));
}

/** Throws ALLOWED_COMMAND_INVALID (exit 2) for the first value of `values` that is not a plain command; `source` names where they come from. */
export function checkAllowedCommands(values: readonly string[], source: string): void {
  for (const value of values) if (!isPlainCommand(value.trim())) throw errors.allowedCommandInvalid(value, source);
}

export interface AllowedCommandsInput {
  role: Pick<Role, 'name' | 'allowed_commands'>;
  /** --allow-command values. */
  flags: readonly string[];
  adapter: Pick<AdapterPlugin, 'name' | 'commandPermissions'>;
  /** The sandbox the run uses ("none" when there is none). */
  sandbox: string;
  notice(message: string): void;
}

/** The commands, trimmed and without repeats; ["*"] alone when any command is allowed. */
export function allowedCommands(input: AllowedCommandsInput): string[] {
  checkAllowedCommands(input.role.allowed_commands, `role ${input.role.name}'s allowed_commands`);
  checkAllowedCommands(input.flags, '--allow-command');
  const all = [...new Set([...input.role.allowed_commands, ...input.flags].map((c) => c.trim()).filter(Boolean))];
  if (!all.length) return [];
  if (all.includes(ANY_COMMAND)) {
    if (input.sandbox === DEFAULT_SANDBOX) throw sandboxErrors.autonomyWithoutSandbox(input.role.name);
    return [ANY_COMMAND];
  }
  const { adapter } = input;
  if (!adapter.commandPermissions) {
    input.notice(`${adapter.name} has no way to let its CLI run only chosen commands: ${all.join(', ')} are named in the prompt, but the CLI decides alone whether it may run them`);
  } else if (adapter.commandPermissions === 'all-or-none') {
    // Inside our sandbox the CLI's own cannot start (codex's nested bwrap): ours confines its commands.
    const where = input.sandbox === DEFAULT_SANDBOX ? 'inside its own sandbox' : `inside supervisor's ${input.sandbox} sandbox (its own cannot start there)`;
    input.notice(`${adapter.name} cannot limit its CLI to ${all.join(', ')}: allowing them lets it run any command ${where}; the worktree stays the only place it writes`);
  }
  return all;
}
