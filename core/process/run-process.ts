/**
 * Runs one process with an argument array (never a command line a shell splits), stdin written
 * then closed (or ignored), output captured up to a cap, and a timeout that ends the whole
 * process tree: TERM to the process group, then KILL after a grace period. A non-zero exit is a
 * value. With viaLauncher the launcher starts it (launcher.ts: the same words, one quoted each).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { DEFAULT_GRACE_MS, watchEnding } from './ending.ts';
import { killGroup, trackGroup, untrackGroup } from './process-groups.ts';
import { launch, type LaunchOptions } from './launcher.ts';
import { takeStandby } from './standby.ts';
import type { RunProcessResult } from './process-result.ts';
import { which } from './which.ts';

export type { RunProcessResult } from './process-result.ts';

export interface RunProcessOptions extends LaunchOptions {
  /**
   * Start it through the launcher (launcher.ts) where it can: for commands whose output is
   * only captured (git), that need no signal of their own in the result. Ignored with
   * teeFiles, onSpawn or cgroupPrefix.
   */
  viaLauncher?: boolean;
  /**
   * Files that receive stdout and stderr as they arrive (what is kept under the cap), so the
   * output can be followed live and survives a crash. Created (truncated) when the process starts.
   */
  teeFiles?: { stdout: string; stderr: string };
  /**
   * Called once the process has started, with its pid and process group (the same number:
   * it leads a group of its own). The engine records the group in the run log, so a later
   * run can end whatever a killed run left behind.
   */
  onSpawn?: (started: { pid: number; pgid: number }) => void;
  /**
   * A command that moves the process into a cgroup and then execs it (core/process/cgroup.ts).
   * Left out when the executable is not found, so a missing one is still reported as such. A
   * standby that joined the same groups ahead (standby.ts) becomes the process instead.
   */
  cgroupPrefix?: string[];
}

export const DEFAULT_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
export { DEFAULT_GRACE_MS } from './ending.ts';

class CappedBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }
  /** Keeps what fits under the cap and returns it (empty once the cap is reached). */
  push(chunk: Buffer): Buffer {
    if (this.size >= this.cap) {
      this.truncated = true;
      return chunk.subarray(0, 0);
    }
    const room = this.cap - this.size;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
    return kept;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * Writes chunks to a file as they arrive. A write that fails (a full disk, a read-only folder)
 * stops the tee and is remembered; the process and its in-memory capture go on.
 */
class Tee {
  private fd: number | null = null;
  error: string | undefined;
  constructor(file: string | undefined) {
    if (file === undefined) return;
    try {
      this.fd = openSync(file, 'w');
    } catch (error) {
      this.fail(error);
    }
  }
  write(chunk: Buffer): void {
    if (this.fd === null || chunk.length === 0) return;
    try {
      writeSync(this.fd, chunk);
    } catch (error) {
      this.fail(error);
    }
  }
  close(): void {
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch {
      // nothing more to keep
    }
    this.fd = null;
  }
  private fail(error: unknown): void {
    this.error ??= error instanceof Error ? error.message : String(error);
    this.close();
  }
}

export function runProcess(options: RunProcessOptions): Promise<RunProcessResult> {
  if (options.viaLauncher && !options.teeFiles && !options.onSpawn && !options.cgroupPrefix?.length) {
    const launched = launch(options);
    if (launched) return launched;
  }
  const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stdout = new CappedBuffer(cap);
  const stderr = new CappedBuffer(cap);
  const teeOut = new Tee(options.teeFiles?.stdout);
  const teeErr = new Tee(options.teeFiles?.stderr);
  const started = performance.now();
  let spawnError: NodeJS.ErrnoException | undefined;

  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      const prefix = options.cgroupPrefix?.length && which(options.bin, options.env) ? options.cgroupPrefix : [];
      const [bin, ...args] = [...prefix, options.bin, ...options.args];
      child =
        // In the groups already: the command starts without waiting for the kernel to move it.
        (prefix.length ? takeStandby(prefix, options) : null) ??
        spawn(bin!, args, {
          cwd: options.cwd,
          env: options.env as NodeJS.ProcessEnv,
          stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
    } catch (error) {
      // Some spawn errors are thrown rather than emitted (E2BIG, EINVAL, ...): a value too.
      teeOut.close();
      teeErr.close();
      resolve(notStarted(error, started));
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) {
      trackGroup(pid, options.signal !== undefined);
      options.onSpawn?.({ pid, pgid: pid }); // detached: it leads a process group of its own
    }
    const ending = watchEnding(options, (signal) => killGroup(child.pid, signal));

    child.stdout!.on('data', (chunk: Buffer) => teeOut.write(stdout.push(chunk)));
    child.stderr!.on('data', (chunk: Buffer) => teeErr.write(stderr.push(chunk)));
    if (child.stdin) {
      child.stdin.on('error', () => {}); // the CLI may exit without reading its input
      child.stdin.end(options.stdin); // a standby's: closed (its command reads /dev/null)
    }
    // The leader has exited: end whatever it left behind in its group so pipes close. A
    // descendant that left the group (setsid) could still hold the pipes open: stop waiting
    // for it after the grace period rather than hang. The CLI finished in time, so the
    // timeout no longer applies while we wait for its pipes.
    let pipeTimer: NodeJS.Timeout | undefined;
    child.on('exit', () => {
      ending.exited();
      killGroup(child.pid, 'SIGKILL');
      pipeTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, options.graceMs ?? DEFAULT_GRACE_MS);
      pipeTimer.unref();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError = error;
    });
    child.on('close', (code, signal) => {
      if (pid !== undefined) untrackGroup(pid);
      ending.done();
      if (pipeTimer) clearTimeout(pipeTimer);
      teeOut.close();
      teeErr.close();
      const teeError = teeOut.error ?? teeErr.error;
      const notFound = spawnError !== undefined && ['ENOENT', 'EACCES', 'ENOTDIR'].includes(spawnError.code ?? '');
      resolve({
        stdout: stdout.text(),
        stderr: stderr.text(),
        exitCode: code,
        signal,
        durationMs: Math.round(performance.now() - started),
        timedOut: ending.timedOut,
        interrupted: ending.interrupted,
        truncated: { stdout: stdout.truncated, stderr: stderr.truncated },
        notFound,
        ...(spawnError ? { spawnError: spawnError.message } : {}),
        ...(teeError === undefined ? {} : { teeError }),
      });
    });
  });
}

/** The result for a process that never started (spawn threw). */
function notStarted(error: unknown, started: number): RunProcessResult {
  const message = error instanceof Error ? error.message : String(error);
  return {
    stdout: '',
    stderr: '',
    exitCode: null,
    signal: null,
    durationMs: Math.round(performance.now() - started),
    timedOut: false,
    interrupted: false,
    truncated: { stdout: false, stderr: false },
    notFound: false,
    spawnError: message,
  };
}
