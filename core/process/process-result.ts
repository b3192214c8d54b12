/** What came back from one run of the CLI. A non-zero exit is a value, not an exception. */
export interface ProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  /** The core's timeout ended the process tree. */
  timedOut: boolean;
  /** The user interrupted (Ctrl-C) and the core ended the process tree. */
  interrupted: boolean;
  /** Output was cut at the capture cap. */
  truncated: { stdout: boolean; stderr: boolean };
}

export interface RunProcessResult extends ProcessResult {
  /** The executable could not be started (ENOENT / EACCES). */
  notFound: boolean;
  /**
   * The spawn error, when the process could not be started at all: not found, or refused by
   * the system (E2BIG: an argument list too long, EAGAIN, ...). Nothing ran then.
   */
  spawnError?: string;
  /** Why writing to teeFiles stopped (a full disk, ...); the output is still in the result. */
  teeError?: string;
}
