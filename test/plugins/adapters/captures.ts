/**
 * Loads the real CLI captures in test/fixtures/cli/<cli>/<case>.* as ProcessResults, with the
 * scratch folder the adapter would have had (cline's session files restored under
 * <scratch>/cline-data/sessions/<id>/), and the expectation written beside each capture.
 */
import { cp, mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandRequest, FailureClass, Metrics, ProcessResult } from '../../../core/plugin-api/index.ts';
import { bareRequest } from '../../../core/run/bare-request.ts';

export const CLI_FIXTURES = fileURLToPath(new URL('../../fixtures/cli/', import.meta.url));
export const CLIS = ['claude', 'codex', 'gemini', 'cline'] as const;
export type Cli = (typeof CLIS)[number];

/** What `<case>.expected.json` holds. */
export interface Expected {
  /** Why the case is here (optional, for readers). */
  note?: string;
  /** Overrides of the ProcessResult (e.g. timedOut for runs that `timeout` killed: exit 124/137). */
  process?: Partial<ProcessResult>;
  /** Overrides of the CommandRequest the adapter sees. */
  request?: Partial<CommandRequest>;
  text: string | null;
  structured?: unknown;
  alternates?: string[];
  metrics: Metrics;
  failure: { class: FailureClass; httpStatus?: number; retryable?: boolean; detailIncludes?: string } | null;
}

export interface Capture {
  cli: Cli;
  name: string;
  dir: string;
  cmd: string;
  expectedFile: string;
}

const read = (file: string) => readFile(file, 'utf8').catch(() => '');

export async function listCaptures(): Promise<Capture[]> {
  const out: Capture[] = [];
  for (const cli of CLIS) {
    const dir = join(CLI_FIXTURES, cli);
    const names = (await readdir(dir)).filter((f) => f.endsWith('.cmd')).map((f) => f.slice(0, -4)).sort();
    for (const name of names) out.push({ cli, name, dir, cmd: await read(join(dir, `${name}.cmd`)), expectedFile: join(dir, `${name}.expected.json`) });
  }
  return out;
}

/** The measured duration: `.duration_ms` when recorded, else the `wall_s=` line of `.cmd`, else 1 s. */
function measuredMs(durationFile: string, cmd: string): number {
  const recorded = Number(durationFile.trim());
  if (durationFile.trim() && Number.isFinite(recorded)) return recorded;
  const wall = /wall_s=([\d.]+)/.exec(cmd);
  return wall?.[1] ? Math.round(Number(wall[1]) * 1000) : 1000;
}

export async function processResultOf(capture: Capture, overrides: Partial<ProcessResult> = {}): Promise<ProcessResult> {
  const base = join(capture.dir, capture.name);
  return {
    stdout: await read(`${base}.stdout`),
    stderr: await read(`${base}.stderr`),
    exitCode: Number((await read(`${base}.exitcode`)).trim()),
    signal: null,
    durationMs: measuredMs(await read(`${base}.duration_ms`), capture.cmd),
    timedOut: false,
    interrupted: false,
    truncated: { stdout: false, stderr: false },
    ...overrides,
  };
}

export function baseRequest(scratchDir: string, overrides: Partial<CommandRequest> = {}): CommandRequest {
  const role = { name: 'implementer', baseRole: 'implementer', extensions: {} };
  return { ...bareRequest({ prompt: 'Reply with a status JSON block.', cwd: scratchDir, scratchDir, role }), ...overrides };
}

/** A fresh scratch folder, with cline's session files where cline would have written them. */
export async function scratchFor(capture: Capture): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), `sv-cap-${capture.cli}-`));
  const session = join(capture.dir, `${capture.name}.session`);
  const files = await readdir(session).catch(() => [] as string[]);
  for (const file of files) {
    const id = file.replace(/\.(messages\.)?json$/, '');
    const target = join(scratch, 'cline-data', 'sessions', id);
    await mkdir(target, { recursive: true });
    await cp(join(session, file), join(target, file));
  }
  return scratch;
}
