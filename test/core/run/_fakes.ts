/** Small, strict fakes for engine unit tests: a role, a prompt, an adapter, a scripted CLI. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRegistry, type Registry } from '../../../core/registry.ts';
import { emptyMetrics } from '../../../core/plugin-api/index.ts';
import type { AdapterPlugin, CommandRequest, Metrics } from '../../../core/plugin-api/contracts.ts';
import { runProcess, type RunProcessOptions, type RunProcessResult } from '../../../core/process/run-process.ts';
import { parsers } from '../../../plugins/parsers/index.ts';
import { parseOutput } from '../../../core/output/parse-output.ts';
import type { Role } from '../../../core/roles/role.ts';
import type { EnginePeers } from '../../../core/run/peers.ts';
import { splitRunOptions, type RunDeps, type RunHooks, type RunRequest, type RunRoleOptions } from '../../../core/run/options.ts';
import { createRole } from '../../../core/roles/role.ts';

export const STATUS_SCHEMA = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, issues: { type: 'array', items: { type: 'string' } } },
};

export function fakeRole(overrides: Partial<Role> = {}): Role {
  return createRole({
    name: 'implementer',
    description: 'test role',
    cli: 'fake',
    system_prompt: 'You are a test.',
    config: { allow_edits: true },
    file: '/roles/implementer.yaml',
    ...overrides,
  });
}

/** The fake CLI's stdout envelope: {"text": ..., "cost": ..., "in": ..., "out": ...}. */
export function envelope(text: string | null, extra: { cost?: number | null; in?: number; out?: number; failure?: unknown; structured?: unknown } = {}): string {
  return JSON.stringify({ text, cost: extra.cost === undefined ? 0.01 : extra.cost, in: extra.in ?? 100, out: extra.out ?? 10, failure: extra.failure, structured: extra.structured });
}

export function answer(json: unknown, prose = 'Done.'): string {
  return `${prose}\n\n\`\`\`json\n${JSON.stringify(json)}\n\`\`\`\n`;
}

export interface FakeAdapter extends AdapterPlugin {
  requests: CommandRequest[];
}

export function fakeAdapter(overrides: Partial<AdapterPlugin> = {}): FakeAdapter {
  const requests: CommandRequest[] = [];
  const adapter = {
    kind: 'adapter' as const,
    name: 'fake',
    bin: 'fake-cli',
    requests,
    command(request: CommandRequest) {
      requests.push(request);
      return { args: ['--print', `attempt-${request.attempt}`], stdin: request.prompt };
    },
    extract(result: RunProcessResult) {
      const data = JSON.parse(result.stdout) as { text: string | null; cost: number | null; in: number; out: number; failure?: never; structured?: unknown };
      const metrics: Metrics = { ...emptyMetrics(), inputTokens: data.in, outputTokens: data.out, costUsd: data.cost };
      return { text: data.text, metrics, ...(data.failure ? { failure: data.failure } : {}), ...(data.structured ? { structured: data.structured } : {}) };
    },
    ...overrides,
  };
  return adapter as FakeAdapter;
}

export function fakeRegistry(adapter: AdapterPlugin): Registry {
  return createRegistry([
    { plugin: adapter, source: 'test', layer: 'builtin' },
    ...parsers.map((p) => ({ plugin: p.plugin, source: p.file, layer: 'builtin' })),
  ]);
}

export type CliStep = Partial<RunProcessResult> | ((options: RunProcessOptions) => Partial<RunProcessResult> | Promise<Partial<RunProcessResult>>);

/** A runProcess whose CLI calls answer from `steps` in order; gates (sh -c) really run. */
export function scriptedProcess(steps: CliStep[]): { run: EnginePeers['runProcess']; calls: RunProcessOptions[] } {
  const calls: RunProcessOptions[] = [];
  return {
    calls,
    async run(options) {
      if (options.bin === '/bin/sh') return runProcess(options);
      calls.push(options);
      const step = steps[calls.length - 1];
      if (step === undefined) throw new Error(`unexpected CLI call #${calls.length}: ${options.bin} ${options.args.join(' ')}`);
      const partial = typeof step === 'function' ? await step(options) : step;
      return {
        stdout: '',
        stderr: '',
        exitCode: 0,
        signal: null,
        durationMs: 5,
        timedOut: false,
        interrupted: false,
        truncated: { stdout: false, stderr: false },
        notFound: false,
        ...partial,
      };
    },
  };
}

/** A step that edits files in the workspace, then answers. */
export function editing(files: Record<string, string>, stdout: string): CliStep {
  return async (options) => {
    for (const [name, content] of Object.entries(files)) await writeFile(join(options.cwd, name), content);
    return { stdout };
  };
}

export interface Harness {
  options: RunRoleOptions;
  adapter: FakeAdapter;
  calls: RunProcessOptions[];
  sleeps: number[];
}

export function harness(repoRoot: string, steps: CliStep[], opts: { role?: Partial<Role>; adapter?: Partial<AdapterPlugin>; run?: Partial<RunRoleOptions> } = {}): Harness {
  const adapter = fakeAdapter(opts.adapter);
  const registry = fakeRegistry(adapter);
  const proc = scriptedProcess(steps);
  const sleeps: number[] = [];
  const role = fakeRole(opts.role);
  const peers: EnginePeers = {
    loadRole: async () => role,
    buildPrompt: async (o) => ({
      prompt: `PROMPT: ${o.task}\n`,
      template: null,
      outputSchema: { name: 'test', schema: STATUS_SCHEMA, file: '/schemas/test.json' },
      instructionFiles: [],
      stats: { promptTokens: 7, parts: [], pruned: [], warnings: [], notices: [] },
    }),
    parseOutput,
    runProcess: proc.run,
    sleep: async (ms) => void sleeps.push(ms),
    now: () => new Date(),
    randomHex: (n) => Math.random().toString(16).slice(2, 2 + n).padEnd(n, '0'),
    self: { bin: process.execPath, args: [] },
  };
  const options: RunRoleOptions = {
    role: role.name,
    task: 'Do the thing',
    repoRoot,
    homeDir: repoRoot,
    env: { PATH: process.env.PATH },
    registry,
    graceMs: 100,
    backoffMs: 10,
    peers,
    ...opts.run,
  };
  return { options, adapter, calls: proc.calls, sleeps };
}

/** A harness's options as runRole's three arguments: the request, its dependencies (tuning inside), hooks. */
export function asCall(options: RunRoleOptions): [RunRequest, RunDeps, RunHooks] {
  const { request, deps, hooks } = splitRunOptions(options);
  return [request, deps, hooks];
}
