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
