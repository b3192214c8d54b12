/**
 * The built single binary, as a user gets it: copied alone into an empty folder and run with
 * a PATH that holds no `node` (only links to git and a few shell tools), an isolated HOME and
 * no NODE_OPTIONS. Suites take their options from `binarySuite()` and get a skip (locally, with a loud note) or a
 * failure (in CI) when dist/ holds no binary.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, symlink } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain .mjs build script without types
import { hostTarget, outputName } from '../../scripts/pkg/targets.mjs';
import { tempDir } from '../helpers/git-repo.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const host: { id: string } | undefined = hostTarget();
/** The binary `npm run build` made for this machine (SUPERVISOR_BINARY overrides), named as the build names it. */
export const BUILT_BINARY: string = process.env.SUPERVISOR_BINARY ?? join(root, 'dist', host ? (outputName(host) as string) : `supervisor-${process.platform}-${process.arch}`);

/** Why the binary tests cannot run, or undefined when they can. */
export function missingBinary(): string | undefined {
  if (existsSync(BUILT_BINARY)) return undefined;
  return `${BUILT_BINARY} does not exist: run "npm run build" before the binary tests (CI runs npm ci, npm run build, npm test).`;
}

/** Options for node:test's describe/it: skip loudly when the binary is absent outside CI. */
export function binarySuite(): { skip?: string } {
  const missing = missingBinary();
  if (!missing) return {};
  if (process.env.CI) throw new Error(`Binary tests cannot run in CI: ${missing}`);
  process.stderr.write(`\n*** SKIPPING the binary end-to-end tests: ${missing}\n\n`);
  return { skip: missing };
}

// Tools a run may need (git for worktrees, a shell for gates); never node.
const TOOLS = ['git', 'sh', 'bash', 'env', 'cat', 'ls', 'cp', 'mv', 'rm', 'mkdir', 'grep', 'sed', 'head', 'tail', 'tr', 'wc', 'true', 'false', 'sleep', 'uname', 'dirname', 'basename'];

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export interface Sandbox {
  /** The folder holding only the copied binary. */
  binDir: string;
  /** The copied binary. */
  binary: string;
  home: string;
  /** A PATH with links to git and shell tools, without node. */
  path: string;
  /**
   * The exact environment `run` gives the binary (PATH, HOME, LANG and the test run's TMPDIR)
   * with `extra` over it: for a test that spawns the binary itself, so what it puts in a temp
   * folder lands under the run's root too, never in the system's /tmp.
   */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Runs the binary; resolves with exit code and output (never rejects on a non-zero exit). */
  run(args: string[], options?: RunOptions): Promise<BinaryRun>;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
}

export interface BinaryRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program with an exact environment (nothing inherited) and collects its output. */
export function runProgram(bin: string, args: string[], options: { cwd: string; env: Record<string, string>; stdin?: string }): Promise<BinaryRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (child.stdin) {
      child.stdin.on('error', () => {}); // a program may exit without reading its input
      child.stdin.end(options.stdin);
    }
  });
}

/** A fresh folder with only the binary in it (the host's build, or `binaryFile`), a HOME and a node-free PATH. */
export async function makeSandbox(binaryFile: string = BUILT_BINARY): Promise<Sandbox> {
  const base = await tempDir('sv-bin-');
  const binDir = join(base, 'bin');
  const tools = join(base, 'tools');
  const home = join(base, 'home');
  await Promise.all([mkdir(binDir), mkdir(tools), mkdir(home)]);
  const binary = join(binDir, 'supervisor');
  await copyFile(binaryFile, binary);
  for (const name of TOOLS) {
    const found = findOnPath(name);
    if (found) await symlink(found, join(tools, name));
  }
  const path = tools;
  // TMPDIR kept: what the binary leaves in a temp folder (a dry run's files) goes under the test run's root.
  const env = (extra: Record<string, string> = {}) => ({ PATH: path, HOME: home, LANG: 'C.UTF-8', ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}), ...extra });
  return {
    binDir,
    binary,
    home,
    path,
    env,
    run(args, options = {}) {
      return runProgram(binary, args, { cwd: options.cwd ?? base, env: env(options.env), stdin: options.stdin });
    },
  };
}
