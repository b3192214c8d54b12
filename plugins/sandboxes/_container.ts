/**
 * docker and podman, one implementation: the CLI runs in an image the user names, with the
 * worktree and scratch folder mounted at their own paths, a read-only root, tmpfs /tmp and
 * home, no capabilities, no-new-privileges, pid/memory/CPU limits, and `--network none`
 * unless the policy opens it. In `allow` mode the container still has no network: supervisor's
 * egress proxy is reached through the bridge (supervisor itself, mounted read-only). The
 * container gets a name so tear-down can remove it even when its client was killed (timeout,
 * Ctrl-C): `<engine> rm -f <name>`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { definePlugin, type SandboxAvailability, type SandboxContext, type SandboxRequest, type SandboxPlugin, gitDirs } from '../../core/plugin-api/index.ts';
import { behindBridge } from './_bridge.ts';
import { inside, installRoot, placedHomeAndTmp } from './_visible-paths.ts';

export type Engine = 'docker' | 'podman';

/** The home inside the container (a tmpfs). */
export const CONTAINER_HOME = '/home/supervisor';
/** Variables of the host that mean nothing (or harm) inside the image. */
const HOST_ONLY = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'PWD', 'OLDPWD', 'TMPDIR', 'SHLVL', '_', 'HOSTNAME', 'TERM', 'DISPLAY', 'XDG_RUNTIME_DIR', 'SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS', 'NODE_OPTIONS']);

function available(engine: Engine, ctx: SandboxContext, options?: Readonly<Record<string, unknown>>): SandboxAvailability {
  const bin = ctx.which(engine);
  const install = engine === 'docker' ? 'install Docker (https://docs.docker.com/engine/install/)' : 'install podman (apt-get install podman, dnf install podman)';
  if (!bin) return { ok: false, missing: `${engine} (the container engine)`, hint: install };
  const version = spawnSync(bin, ['version'], { encoding: 'utf8', timeout: 10_000, env: ctx.env as NodeJS.ProcessEnv });
  if (version.status !== 0) {
    const said = (version.stderr || version.error?.message || '').trim().split('\n')[0];
    return { ok: false, missing: `a running ${engine} engine (${engine} version: ${said || `exit ${version.status}`})`, hint: engine === 'docker' ? 'start the Docker daemon (systemctl start docker) or check DOCKER_HOST' : 'check podman (podman info)' };
  }
  if (options && (typeof options.image !== 'string' || !options.image)) {
    return { ok: false, missing: 'an image that holds the CLI (sandbox.image)', hint: `name it in the role: sandbox: { name: ${engine}, image: <image> }` };
  }
  return { ok: true };
}


/** A container name from the request's id: [a-zA-Z0-9][a-zA-Z0-9_.-]*. */
export function containerName(id: string): string {
  return `supervisor-${id.replace(/[^a-zA-Z0-9_.-]/g, '-')}`.slice(0, 200);
}

function removeContainer(bin: string, name: string, env: Record<string, string | undefined>): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(bin, ['rm', '-f', name], { stdio: 'ignore', env: env as NodeJS.ProcessEnv });
    child.on('error', () => resolve());
    child.on('close', () => resolve());
  });
}

async function wrap(engine: Engine, request: SandboxRequest, ctx: SandboxContext) {
  const bin = ctx.which(engine) ?? engine;
  const { cwd, scratchDir, policy, command } = request;
  const image = policy.options.image;
  if (typeof image !== 'string' || !image) throw new Error(`sandbox ${engine} needs an image: sandbox: { name: ${engine}, image: <image> }`);
  const name = containerName(request.id);
  const staging = await mkdtemp(join(tmpdir(), 'sv-sandbox-ctr-'));
  const proxy = policy.network === 'allow' ? await ctx.startEgressProxy(policy.allow) : undefined;
  const teardown = async () => {
    await removeContainer(bin, name, ctx.env);
    await proxy?.close();
    await rm(staging, { recursive: true, force: true });
  };
  try {
    // -i: the CLI's prompt may come on stdin (the engine closes it when supervisor does).
    const args = ['run', '--rm', '--name', name, '--init', '-i'];
    args.push('--read-only', '--tmpfs', '/tmp:rw,exec,nosuid,nodev', '--tmpfs', `${CONTAINER_HOME}:rw,exec,nosuid,nodev`);
    args.push('--cap-drop', 'ALL', '--security-opt', 'no-new-privileges');
    args.push('--pids-limit', String(policy.limits.pids), '--memory', `${policy.limits.memoryMb}m`, '--cpus', String(policy.limits.cpus));
    // open: the engine's default network (docker's bridge, podman's pasta or slirp4netns).
    if (policy.network !== 'open') args.push('--network', 'none');
    if (engine === 'podman') args.push('--userns', 'keep-id');
    else if (process.getuid && process.getgid) args.push('--user', `${process.getuid()}:${process.getgid()}`);
    const git = request.git ?? gitDirs(cwd);
    if (git) args.push('-v', `${git.common}:${git.common}:ro`, '-v', `${git.admin}:${git.admin}`);
    args.push('-v', `${cwd}:${cwd}`, '-v', `${scratchDir}:${scratchDir}`);
    let n = 0;
    for (const entry of policy.config) {
      if (!existsSync(entry.path)) continue;
      const target = request.homeDir && inside(entry.path, request.homeDir) ? join(CONTAINER_HOME, relative(request.homeDir, entry.path)) : entry.path;
      if (entry.mode === 'bind') {
        args.push('-v', `${entry.path}:${target}:ro`);
      } else {
        const copy = join(staging, String(n++));
        cpSync(entry.path, copy, { recursive: true, dereference: true });
        args.push('-v', `${copy}:${target}`);
      }
    }
    // The engine's client runs with the caller's environment (DOCKER_HOST, XDG_RUNTIME_DIR for
    // rootless podman); the container gets only command.env's names, the allowlisted environment.
    const env: Record<string, string | undefined> = { ...ctx.env, ...command.env };
    // Values travel in the engine's environment (-e NAME), never on its command line.
    const passed = Object.keys(command.env).filter((k) => command.env[k] !== undefined && !HOST_ONLY.has(k)).sort();
    for (const key of passed) args.push('-e', key);
    const placed = placedHomeAndTmp(request, CONTAINER_HOME);
    args.push('-e', `HOME=${placed.HOME}`, '-e', `TMPDIR=${placed.TMPDIR}`, '-w', cwd);
    let inner = [command.bin, ...command.args];
    if (proxy) {
      // The bridge is supervisor itself, mounted read-only at its own path.
      const self = [ctx.self.bin, ...(ctx.self.args[0] ? [installRoot(ctx.self.args[0])] : [])];
      for (const path of new Set(self)) args.push('-v', `${path}:${path}:ro`);
      args.push('-v', `${proxy.dir}:${proxy.dir}`);
      const bridged = behindBridge(proxy, ctx, inner);
      inner = bridged.command;
      for (const [key, value] of Object.entries(bridged.env)) args.push('-e', `${key}=${value}`);
    }
    args.push(image, ...inner);
    return { bin, args, env, teardown };
  } catch (error) {
    await teardown();
    throw error;
  }
}

export function containerSandbox(engine: Engine): SandboxPlugin {
  return definePlugin({
    kind: 'sandbox',
    name: engine,
    description: `${engine}: the CLI in an image you name; read-only root, no capabilities, limits, allowlisted network`,
    available: (ctx, options) => available(engine, ctx, options),
    wrap: (request, ctx) => wrap(engine, request, ctx),
  });
}
