/**
 * Whether an adapter's CLI is installed and runnable, before anything spends: the adapter's own
 * `installed` hook when it has one (through callHook), else its `bin` found on PATH and run with
 * its `versionArgs` within a short time limit. A self-hosted adapter (replay) always is.
 */
import type { AdapterAvailability, AdapterCheckContext, AdapterPlugin } from '../plugin-api/contracts.ts';
import { runProcess } from '../process/run-process.ts';
import { which } from '../process/which.ts';
import { callHook } from './call-hook.ts';

/** Long enough for a CLI's cold start (node CLIs load their bundle), short enough not to stall a plan. */
export const VERSION_CHECK_MS = 15_000;

export interface InstalledOptions {
  env: Record<string, string | undefined>;
  /** Where the check runs (the repository root). */
  cwd: string;
}

function checkContext(options: InstalledOptions): AdapterCheckContext {
  return {
    env: Object.freeze({ ...options.env }),
    which: (bin) => which(bin, options.env) ?? null,
    runProcess: (request) =>
      runProcess({
        bin: request.bin,
        args: request.args,
        cwd: request.cwd ?? options.cwd,
        env: { ...options.env, ...request.env },
        timeoutMs: request.timeoutMs ?? VERSION_CHECK_MS,
        graceMs: 500,
        maxOutputBytes: request.maxOutputBytes ?? 64 * 1024,
        ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
      }),
  };
}

/** The default check: on PATH, and `<bin> <versionArgs>` exits 0 in time. */
async function versionCheck(adapter: AdapterPlugin, ctx: AdapterCheckContext): Promise<AdapterAvailability> {
  const path = ctx.which(adapter.bin);
  const install = `Install ${adapter.bin}, put it on PATH, or choose another CLI (--cli, or the plan's cli / models)`;
  if (!path) return { ok: false, missing: `${adapter.bin} (not found on PATH)`, hint: install };
  const args = adapter.versionArgs ?? ['--version'];
  const result = await ctx.runProcess({ bin: path, args, timeoutMs: VERSION_CHECK_MS });
  const said = `${result.stderr}\n${result.stdout}`.split('\n').map((l) => l.trim()).filter(Boolean).pop();
  if (result.timedOut) return { ok: false, missing: `a working ${adapter.bin} (\`${adapter.bin} ${args.join(' ')}\` gave no answer in ${VERSION_CHECK_MS / 1000}s)`, hint: install };
  if (result.exitCode !== 0) return { ok: false, missing: `a working ${adapter.bin} (\`${path} ${args.join(' ')}\` exited ${result.exitCode ?? result.signal}${said ? `: ${said}` : ''})`, hint: install };
  return { ok: true, detail: `${path}${said ? ` (${said})` : ''}` };
}

export async function adapterInstalled(adapter: AdapterPlugin, options: InstalledOptions): Promise<AdapterAvailability> {
  if (adapter.selfHosted) return { ok: true, detail: 'answers through supervisor itself' };
  const ctx = checkContext(options);
  if (adapter.installed) return callHook(adapter, 'installed', () => adapter.installed!(ctx));
  return versionCheck(adapter, ctx);
}
