/**
 * The environment variables supervisor reads as tuning knobs, each parsed in one place so every
 * entry point (command line, MCP, a CI job) reads it the same way (README "Running roles").
 */
import { errors } from '../errors.ts';

type Env = Record<string, string | undefined>;

/** The longest timer Node keeps: a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A number of milliseconds from 0 to MAX_TIMER_MS; unset or empty: undefined; else a usage error naming the variable. */
export function envMs(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) throw errors.usage(`${name} must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, got "${raw}"`);
  return value;
}

/** SUPERVISOR_KILL_GRACE_MS: how long an ended process tree gets between SIGTERM and SIGKILL. */
export const killGraceMs = (env: Env): number | undefined => envMs(env, 'SUPERVISOR_KILL_GRACE_MS');

/** SUPERVISOR_RETRY_BACKOFF_MS: the pause before a run's retry. */
export const retryBackoffMs = (env: Env): number | undefined => envMs(env, 'SUPERVISOR_RETRY_BACKOFF_MS');

/** Both knobs as the engines' run options take them (absent when unset). */
export function processTuning(env: Env): { graceMs?: number; backoffMs?: number } {
  const graceMs = killGraceMs(env);
  const backoffMs = retryBackoffMs(env);
  return { ...(graceMs === undefined ? {} : { graceMs }), ...(backoffMs === undefined ? {} : { backoffMs }) };
}
