/**
 * The launcher: one small /bin/sh, started once, that starts this process's capture-only
 * commands (git) for it. Node forks the whole process for every spawn, which blocks the event
 * loop for a time that grows with the heap (3 ms a spawn at 45 MiB, 6–8 ms at 75 MiB here); the
 * shell, at 1 MiB, forks in a tenth of a millisecond, so commands can run side by side while
 * this process works. A command runs with exactly the environment given, in the folder given,
 * stdin from /dev/null or from the text given; its stdout and stderr go to files in a folder
 * only this user can read (0700, and every sandbox has its own /tmp), read back and deleted when
 * it exits.
 *
 * Unlike a spawned command it has no process group of its own: it shares the launcher's, which
 * is a session of its own (no terminal: SIGINT and SIGQUIT are ignored in it, as for any
 * background command of a shell). A timeout ends the command and the processes below it (found
 * by parent in /proc); a stop signal ends the launcher's whole group while a command runs
 * (endLiveProcessGroups), and later commands spawn. A command ended by a signal reports
 * 128 + its number as its exit code, as a shell does, and no signal name.
 *
 * Linux only. Where the shell is missing, or a request cannot be said to it exactly (a NUL, a
 * variable name env would read as an option, an argument near the system's limit), `launch`
 * answers null and the caller spawns as before.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readCapped } from '../fs/read-capped.ts';
import { watchEnding } from './ending.ts';
import { trackGroup, untrackGroup } from './process-groups.ts';
import { processTree, signalPids } from './tagged-processes.ts';
import type { RunProcessResult } from './process-result.ts';
import { request, type LaunchOptions } from './launch-line.ts';
import { shellWord } from '../text/shell-word.ts';
import { systemProgram, which } from './which.ts';

export type { LaunchOptions } from './launch-line.ts';

const NO_FOLDER = 'no such folder';
const CAPTURE_BYTES = 32 * 1024 * 1024;
interface Job {
  /** Known once its S line is read. */
  pid?: number;
  exited: (code: number | null, why?: string) => void;
}

class Launcher {
  private readonly jobs = new Map<string, Job>();
  /** Each job's waiting subshell (O), and the jobs it has finished waiting for (C or E): collected once both are known. */
  private readonly waiter = new Map<string, number>();
  private readonly waited = new Set<string>();
  private next = 0;
  private pending = '';
  /** Takes new commands (not once retired or its shell is gone). */
  accepting = true;
  private ended = false;
  private retired = false;
  private readonly shell: ChildProcess;
  readonly dir: string;
  readonly env: string | null;

  constructor(shell: ChildProcess, dir: string, env: string | null) {
    this.shell = shell;
    this.dir = dir;
    this.env = env;
    shell.stdout!.setEncoding('latin1');
    shell.stdout!.on('data', (text: string) => this.read(text));
    shell.stdout!.on('close', () => this.die('the launcher shell ended'));
    shell.stdin!.on('error', () => this.die('the launcher shell stopped reading'));
    shell.on('error', () => this.die('the launcher shell could not start'));
    shell.unref();
    this.idle();
  }

  /** Runs `line` (made by `request` for job `id`) and reports the job's pid and exit. */
  submit(id: string, line: string, job: Job): void {
    if (this.jobs.size === 0) this.busy();
    this.jobs.set(id, job);
    this.shell.stdin!.write(line);
  }

  get pid(): number | undefined {
    return this.shell.pid;
  }

  nextId(): string {
    return String(++this.next);
  }

  private read(text: string): void {
    this.pending += text;
    for (let end = this.pending.indexOf('\n'); end !== -1; end = this.pending.indexOf('\n')) {
      const [kind, id = '', value] = this.pending.slice(0, end).split(' ');
      this.pending = this.pending.slice(end + 1);
      const job = this.jobs.get(id);
      if (kind === 'O') this.waiter.set(id, Number(value));
      if (kind === 'C' || kind === 'E') this.waited.add(id);
      this.reap(id);
      // Started after its caller gave up on it (abandon): it ends at once.
      if (!job && kind === 'S') signalJob(Number(value), 'SIGKILL');
      if (!job) continue;
      if (kind === 'S') job.pid = Number(value);
      else if (kind === 'C') this.finish(id, job, null, NO_FOLDER);
      else if (kind === 'E') this.finish(id, job, Number(value));
    }
  }

  /**
   * The subshell that waited for job `id` has said its last line: the shell collects it (a
   * shell that is not interactive never collects background jobs of its own accord, and each
   * would stay a zombie until it exits). It exits right after that line, so the wait is short.
   */
  private reap(id: string): void {
    const pid = this.waiter.get(id);
    if (pid === undefined || !this.waited.has(id)) return;
    this.waiter.delete(id);
    this.waited.delete(id);
    if (!this.shell.stdin!.writableEnded) this.shell.stdin!.write(`wait ${pid}\n`);
  }

  /** A job whose start was never reported (the shell could not fork) fails when its time is up. */
  abandon(id: string, why: string): void {
    const job = this.jobs.get(id);
    if (job && job.pid === undefined) this.finish(id, job, null, why);
  }

  private finish(id: string, job: Job, code: number | null, why?: string): void {
    this.jobs.delete(id);
    if (this.jobs.size === 0) this.idle();
    job.exited(code, why);
  }

  /** While a command runs: this process waits for it, and a stop signal ends the launcher's group. */
  private busy(): void {
    (this.shell.stdout as unknown as { ref(): void }).ref();
    if (this.shell.pid !== undefined) trackGroup(this.shell.pid, false);
  }

  private idle(): void {
    for (const stream of [this.shell.stdin, this.shell.stdout]) (stream as unknown as { unref?(): void } | null)?.unref?.();
    if (this.shell.pid !== undefined) untrackGroup(this.shell.pid);
  }

  /** No more commands through this shell; those running finish. */
  retire(): void {
    this.accepting = false;
    this.retired = true;
    // Its folder is gone (the only reason to retire): the path may be someone else's by now.
    this.shell.stdin!.end('trap - EXIT\n');
  }

  /**
   * The shell is gone: every job still waiting fails (it may still be running: it cannot be
   * told), later commands spawn, and its folder goes now. A shell ended by a signal (a stop
   * signal ends its group) ran no EXIT trap, and this process may yet die without its exit handler.
   */
  private die(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.accepting = false;
    if (!this.retired) rmSync(this.dir, { recursive: true, force: true });
    for (const [id, job] of [...this.jobs]) this.finish(id, job, null, why);
  }
}

let launcher: Launcher | null | undefined;

/** The launcher's shell and folder while it takes commands (for tests and diagnostics). */
export function runningLauncher(): { pid: number; dir: string } | undefined {
  return launcher?.accepting && launcher.pid !== undefined ? { pid: launcher.pid, dir: launcher.dir } : undefined;
}

/** A command and what it started (it has no process group of its own to signal). */
function signalJob(pid: number, signal: NodeJS.Signals): void {
  signalPids(processTree(pid), signal);
}

function theLauncher(): Launcher | null {
  if (launcher && !launcher.accepting) launcher = null;
  if (launcher !== undefined) return launcher;
  launcher = null;
  if (process.platform !== 'linux' || process.env.SUPERVISOR_NO_LAUNCHER === '1' || !which('/bin/sh', {})) return null;
  // dash passes a command exactly the variables assigned before it; another shell adds its own
  // (bash: SHLVL, _), so there the command goes through env -i.
  const exact = basename(realpathSync('/bin/sh')) === 'dash';
  const env = exact ? null : (systemProgram('env') ?? null);
  if (!exact && !env) return null;
  try {
    const dir = mkdtempSync(join(tmpdir(), 'sv-launch-')); // mode 0700
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const shell = spawn('/bin/sh', ['-s'], { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    // The shell removes the folder too when its input ends: this process killed (SIGKILL, a
    // signal it does not handle) runs no exit handler, and every such end left a folder in /tmp.
    shell.stdin!.write(`trap ${shellWord(`rm -rf -- ${shellWord(dir)}`)} EXIT\n`);
    launcher = new Launcher(shell, dir, env);
  } catch {
    return null; // no folder for the output (a full or read-only /tmp), no shell: spawn as before
  }
  return launcher;
}

/**
 * Where `bin` is on the command's PATH, found once per PATH in this process: a run's ~20 gits
 * each stat every folder before git's (and a program put earlier on PATH later is not picked up
 * halfway through a run).
 */
const foundBefore = new Map<string, string | undefined>();
function found(bin: string, env: LaunchOptions['env']): string | undefined {
  const key = `${env.PATH ?? ''}\0${bin}`;
  if (!foundBefore.has(key)) foundBefore.set(key, which(bin, env));
  return foundBefore.get(key);
}

/** Up to `cap` bytes of an output file as text, whether there was more, and the file deleted; null when it cannot be read. */
function takeFile(path: string, cap: number): { text: string; truncated: boolean } | null {
  const read = readCapped(path, 'utf8', cap);
  rmSync(path, { force: true });
  return read;
}

function written(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { mode: 0o600 });
    return true;
  } catch {
    rmSync(path, { force: true });
    return false;
  }
}

/**
 * Runs the command through the launcher, with runProcess's result (a signal shows as its exit
 * code 128+n, and `signal` is null); null when it cannot be launched so (see the header).
 */
export function launch(options: LaunchOptions): Promise<RunProcessResult> | null {
  const it = theLauncher();
  const bin = it ? found(options.bin, options.env) : undefined;
  if (!it || !bin || options.signal?.aborted) return null; // aborted already: spawn's path says so
  // Its folder removed (a /tmp cleaner, in a long-lived server): spawn from now on.
  if (!existsSync(it.dir)) return it.retire(), null;
  const id = it.nextId();
  const files = { stdin: '/dev/null', stdout: join(it.dir, `${id}.out`), stderr: join(it.dir, `${id}.err`) };
  if (options.stdin !== undefined) files.stdin = join(it.dir, `${id}.in`);
  const line = request(id, bin, options, files, it.env);
  if (line === null) return null;
  if (options.stdin !== undefined && !written(files.stdin, options.stdin)) return null;
  return new Promise((resolve) => {
    const started = performance.now();
    const job: Job = {
      exited: (code, why) => {
        ending.done();
        if (options.stdin !== undefined) rmSync(files.stdin, { force: true });
        const cap = options.maxOutputBytes ?? CAPTURE_BYTES;
        const stdout = takeFile(files.stdout, cap);
        const stderr = takeFile(files.stderr, cap);
        // The shell could not make the output files (a full disk): the command never ran.
        why ??= stdout && stderr ? undefined : `its output could not be kept in ${it.dir}`;
        resolve({
          stdout: stdout?.text ?? '',
          stderr: stderr?.text ?? '',
          exitCode: why === undefined ? code : null,
          signal: null,
          durationMs: Math.round(performance.now() - started),
          timedOut: ending.timedOut,
          interrupted: ending.interrupted,
          truncated: { stdout: stdout?.truncated === true, stderr: stderr?.truncated === true },
          notFound: why === NO_FOLDER, // as spawn's ENOENT for a missing cwd
          ...(why === undefined ? {} : { spawnError: `cannot run ${options.bin} in ${options.cwd}: ${why}` }),
        });
      },
    };
    // Not started yet (its S line not read): given up on, and ended as soon as it starts.
    const ending = watchEnding(options, (signal) =>
      job.pid === undefined ? it.abandon(id, options.signal?.aborted ? 'interrupted before it started' : 'it did not start in time') : signalJob(job.pid, signal),
    );
    it.submit(id, line, job);
  });
}
