/**
 * The one place plugin code is called: every hook of every kind (and a plugin module's import)
 * goes through here, so each gets the same guarantees whatever kind it belongs to.
 *
 * - A time limit: a promise that never settles becomes PLUGIN_TIMEOUT naming plugin, hook and
 *   limit, instead of an event loop that drains and a process that exits 0 having said nothing.
 * - Attribution: a throw is wrapped once as PLUGIN_HOOK naming plugin and hook.
 * - Shared prototypes: keys a plugin added to Object/Array/Function.prototype are removed and
 *   reported as PLUGIN_SHAPE (they would change how every object in the process behaves).
 * - The result's shape (core/plugin-api/shape.ts): a wrong one is PLUGIN_SHAPE naming the field.
 */
import { isSupervisorError, wrapPluginError } from '../errors.ts';
import { checkHookResult } from '../plugin-api/shape.ts';
import { pluginErrors } from './errors.ts';

/** Default limits in milliseconds. Packers run tools (repomix, git), so theirs is longer. */
const DEFAULT_LIMIT_MS: Record<string, number> = { pack: 600_000 };
const FALLBACK_LIMIT_MS = 60_000;
/** Environment variable that sets one limit for every hook and import (milliseconds). */
export const PLUGIN_TIMEOUT_ENV = 'SUPERVISOR_PLUGIN_TIMEOUT_MS';
/** setTimeout's largest delay; longer limits would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The time limit of one hook: SUPERVISOR_PLUGIN_TIMEOUT_MS when set to a positive whole number, else the default. */
export function hookLimitMs(hook: string, env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env[PLUGIN_TIMEOUT_ENV];
  const parsed = raw === undefined ? NaN : Number(raw);
  if (Number.isInteger(parsed) && parsed > 0) return Math.min(parsed, MAX_TIMER_MS);
  return DEFAULT_LIMIT_MS[hook] ?? FALLBACK_LIMIT_MS;
}

// ---- shared prototypes --------------------------------------------------------------------

const GUARDED: [label: string, target: object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
];
const baseline = GUARDED.map(([, target]) => new Set<PropertyKey>(Reflect.ownKeys(target)));

/** Removes keys added to the guarded prototypes since start-up; returns them as "Object.prototype.x". */
export function removePrototypeAdditions(): string[] {
  const added: string[] = [];
  GUARDED.forEach(([label, target], index) => {
    for (const key of Reflect.ownKeys(target)) {
      if (baseline[index]!.has(key)) continue;
      added.push(`${label}.${String(key)}`);
      Reflect.deleteProperty(target, key);
    }
  });
  return added;
}

function checkPrototypes(plugin: string, hook: string): void {
  const added = removePrototypeAdditions();
  if (added.length) throw pluginErrors.pollution(plugin, hook, added);
}

/** A plugin that did not answer or answered in the wrong shape: a broken plugin, never a bad answer of the model. */
export function isPluginFault(error: unknown): boolean {
  return isSupervisorError(error) && (error.code === 'PLUGIN_TIMEOUT' || error.code === 'PLUGIN_SHAPE');
}

// ---- calls ----------------------------------------------------------------------------------

/** Which plugin a hook belongs to: its kind picks the result's shape, its name goes into errors. */
export interface PluginRef {
  kind: string;
  name: string;
}

export interface HookCallOptions {
  /** Milliseconds before PLUGIN_TIMEOUT; default hookLimitMs(hook). */
  limitMs?: number;
  /** Check the result against the hook's shape (default true). */
  checkResult?: boolean;
}

/** Rejects with PLUGIN_TIMEOUT when `work` has not settled after `limitMs`. The timer keeps the process alive until then. */
export function withTimeLimit<T>(work: Promise<T>, plugin: string, hook: string, limitMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(pluginErrors.timeout(plugin, hook, limitMs)), limitMs);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** Calls an asynchronous (or synchronous) hook under a time limit, then checks prototypes and the result. */
export async function callHook<T>(plugin: PluginRef, hook: string, run: () => T | Promise<T>, options: HookCallOptions = {}): Promise<T> {
  let result: T;
  try {
    result = await withTimeLimit(Promise.resolve().then(run), plugin.name, hook, options.limitMs ?? hookLimitMs(hook));
  } catch (error) {
    checkPrototypes(plugin.name, hook);
    throw wrapPluginError(plugin.name, hook, error);
  }
  return checked(plugin, hook, result, options);
}

/**
 * Calls a synchronous hook (a parser's parse, formatInstructions). A synchronous call cannot be
 * cut short, so it has no time limit; everything else is as in callHook.
 */
export function callHookSync<T>(plugin: PluginRef, hook: string, run: () => T, options: HookCallOptions = {}): T {
  let result: T;
  try {
    result = run();
  } catch (error) {
    checkPrototypes(plugin.name, hook);
    throw wrapPluginError(plugin.name, hook, error);
  }
  return checked(plugin, hook, result, options);
}

function checked<T>(plugin: PluginRef, hook: string, result: T, options: HookCallOptions): T {
  checkPrototypes(plugin.name, hook);
  if (options.checkResult === false) return result;
  const problems = checkHookResult(plugin.kind, hook, result);
  if (problems.length) throw pluginErrors.resultShape(plugin.name, hook, problems.slice(0, 8));
  return result;
}
