/**
 * Settings an adapter takes from either an environment variable or a role's `x-` field (replay's
 * reply source, cline's legacy task folder). One rule for all: the environment variable wins, so
 * a run can override what a role file says without editing it (README, Adapters).
 */
import type { AdapterContext, CommandRequest } from '../../../core/plugin-api/index.ts';

export interface Setting {
  value: string;
  /** Where it came from, for messages: "env SUPERVISOR_REPLAY" or "role field x-replay". */
  from: string;
  /** For a role field: the role file that gave it (a relative path in it is relative to this file). */
  roleFile?: string;
}

/** The non-empty value of env `envName`, else of the role's `extension` field; undefined when neither is set. */
export function envOrRoleSetting(request: CommandRequest, ctx: AdapterContext, envName: string, extension: string): Setting | undefined {
  const fromEnv = ctx.env[envName];
  if (fromEnv) return { value: fromEnv, from: `env ${envName}` };
  const fromRole = request.role.extensions[extension];
  const roleFile = request.role.extensionFiles?.[extension];
  if (typeof fromRole === 'string' && fromRole) return { value: fromRole, from: `role field ${extension}`, ...(roleFile ? { roleFile } : {}) };
  return undefined;
}
