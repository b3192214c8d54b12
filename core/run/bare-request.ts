/**
 * A CommandRequest for calling an adapter's hooks outside a run (`supervisor parse --cli`,
 * `plugins check --sample`): no prompt to speak of, no instruction files, no flags or config,
 * no edits; only what the caller knows (where, the role, the schema).
 */
import type { CommandRequest } from '../plugin-api/contracts.ts';

export interface BareRequestInput {
  prompt: string;
  cwd: string;
  scratchDir: string;
  role: CommandRequest['role'];
  outputSchema?: CommandRequest['outputSchema'];
}

export function bareRequest(input: BareRequestInput): CommandRequest {
  return {
    prompt: input.prompt,
    cwd: input.cwd,
    scratchDir: input.scratchDir,
    ...(input.outputSchema ? { outputSchema: input.outputSchema } : {}),
    instructionFiles: [],
    flags: [],
    config: {},
    allowEdits: false,
    allowedCommands: [],
    stream: false,
    attempt: 1,
    role: input.role,
  };
}
