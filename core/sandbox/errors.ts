/** Sandbox errors: stable SANDBOX_* codes, all configuration errors (exit 2). */
import { SupervisorError } from '../errors.ts';

export const sandboxErrors = {
  unavailable: (name: string, missing: string, hint: string) =>
    new SupervisorError('SANDBOX_UNAVAILABLE', `The ${name} sandbox cannot run here: ${missing} is missing`, {
      details: { sandbox: name, missing },
      hint: `${hint} (or choose another sandbox: supervisor doctor lists them)`,
    }),
  badOption: (field: string, value: unknown, expected: string) =>
    new SupervisorError('SANDBOX_OPTION', `sandbox.${field}: expected ${expected}, got ${JSON.stringify(value)}`, {
      details: { field },
      hint: 'Fix the role\'s sandbox mapping or the --sandbox/--allow-host/--pass-env flags.',
    }),
};
