/**
 * The engine's view of its neighbours (roles, prompt, output, process), gathered in one
 * place so `runRole` can take them as injected functions and tests can swap any of them.
 * `resolvePeers()` loads the real modules lazily, keeping `supervisor --help` fast.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Role } from '../roles/role.ts';
import type { RunProcessOptions, RunProcessResult } from '../process/run-process.ts';
import type { ParseOutputOptions } from '../output/parse-output.ts';
import type { BuildPromptOptions, BuiltPrompt } from '../prompt/build-prompt.ts';
import type { RoleLoadOptions } from '../roles/load-role.ts';
import { looksLikeRoleFile } from '../roles/load-options.ts';

/** Everything the engine calls that touches other modules or the outside world. */
export interface EnginePeers {
  /**
   * The role a run names: by name, or from a file when the argument looks like one (a path, or
   * a .yaml name; relative paths are relative to the repository root).
   */
  loadRole(nameOrFile: string, options: RoleLoadOptions): Promise<Role>;
  buildPrompt(options: BuildPromptOptions): Promise<BuiltPrompt>;
  parseOutput(text: string, options: ParseOutputOptions): Record<string, unknown>;
  runProcess(options: RunProcessOptions): Promise<RunProcessResult>;
  /** Waits, resolving early (without throwing) when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  now(): Date;
  /** `n` random hex characters (run ids). */
  randomHex(n: number): string;
  /** How to start supervisor itself (adapters such as replay use it). */
  self: { bin: string; args: string[] };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Fills in the neighbours the caller did not give, importing only the modules needed. */
export async function resolvePeers(given: Partial<EnginePeers> = {}): Promise<EnginePeers> {
  const load = async <T>(present: unknown, importer: () => Promise<T>): Promise<T | undefined> => (present ? undefined : importer());
  const [processModule, selfModule, roles, prompt, output] = await Promise.all([
    load(given.runProcess, () => import('../process/run-process.ts')),
    load(given.self, () => import('../self-command.ts')),
    load(given.loadRole, () => import('../roles/load-role.ts')),
    load(given.buildPrompt, () => import('../prompt/build-prompt.ts')),
    load(given.parseOutput, () => import('../output/parse-output.ts')),
  ]);
  return {
    loadRole:
      given.loadRole ??
      ((arg, options) => (looksLikeRoleFile(arg) ? roles!.loadRoleFile(resolve(options.repoRoot, arg), options) : roles!.loadRole(arg, options))),
    buildPrompt: given.buildPrompt ?? prompt!.buildPrompt,
    parseOutput: given.parseOutput ?? output!.parseOutput,
    runProcess: given.runProcess ?? processModule!.runProcess,
    sleep: given.sleep ?? abortableSleep,
    now: given.now ?? (() => new Date()),
    randomHex: given.randomHex ?? ((n) => randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n)),
    self: given.self ?? selfModule!.selfCommand(),
  };
}
