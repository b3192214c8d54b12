/**
 * What the CLI may run besides editing: the role's `allowed_commands` and `--allow-command`,
 * checked once before a run starts. Any command ("*") is full autonomy and is refused without a
 * sandbox; an adapter that cannot map the list to its CLI's permissions says so in a notice.
 */
import type { AdapterPlugin } from '../plugin-api/contracts.ts';
import type { Role } from '../roles/role.ts';
import { sandboxErrors } from '../sandbox/errors.ts';
import { DEFAULT_SANDBOX } from '../sandbox/policy.ts';

export const ANY_COMMAND = '*';

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
    input.notice(`${adapter.name} cannot limit its CLI to ${all.join(', ')}: allowing them lets it run any command inside its own sandbox (the worktree stays the only place it writes)`);
  }
  return all;
}
