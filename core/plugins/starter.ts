/** Starter plugin files written by `supervisor plugins new`: typed, commented, working as is. */
import type { PluginKind } from '../plugin/contracts.ts';

const adapter = (name: string) => `/**
 * ${name}: an adapter plugin. It tells supervisor how to run one CLI and how to read what it
 * printed. supervisor spawns the process itself (argument array, no shell, timeout, process
 * tree killed on timeout); this file only describes and interprets.
 *
 * Use it in a role:   cli: ${name}
 * Check it:           supervisor plugins check .supervisor/plugins/${name}.ts
 */
import { definePlugin, emptyMetrics, type Extraction } from 'supervisor/plugin';

export default definePlugin({
  kind: 'adapter',
  name: '${name}',
  description: 'Runs the ${name} CLI (edit me)',
  // The executable looked up on PATH.
  bin: '${name}',
  // How to make it print its version (used by \`supervisor doctor\`).
  versionArgs: ['--version'],
  // Instruction files (system.md) are rendered into the prompt; use 'argument' to pass them as flags.
  instructions: 'prompt',
  // Environment that keeps the CLI quiet and offline-safe (telemetry, auto-update off).
  quietEnv: {},

  // Build the command line for one attempt. The prompt goes on stdin here; the role's \`flags\`
  // are appended so users can add options from YAML.
  command(request) {
    const args = [...request.flags];
    if (request.model) args.push('--model', request.model);
    return { args, stdin: request.prompt };
  },

  // Read the result: the model's final text, metrics, and a failure class when it failed.
  extract(result): Extraction {
    const metrics = { ...emptyMetrics(), durationMs: result.durationMs };
    if (result.exitCode !== 0) {
      return { text: null, metrics, failure: { class: 'nonzero_exit', detail: result.stderr.trim().slice(0, 200) || \`exit code \${result.exitCode}\` } };
    }
    const text = result.stdout.trim();
    if (!text) return { text: null, metrics, failure: { class: 'empty_output', detail: 'the CLI printed nothing' } };
    return { text, metrics };
  },
});
`;

const packer = (name: string) => `/**
 * ${name}: a packer plugin. It returns named context parts; supervisor applies the token
 * budget and prunes low-priority parts, so a packer only gathers.
 *
 * Use it:    supervisor pack --packer ${name}
 */
import { readFile } from 'node:fs/promises';
import { definePlugin } from 'supervisor/plugin';

export default definePlugin({
  kind: 'packer',
  name: '${name}',
  description: 'Packs the target files (edit me)',
  async pack(request, ctx) {
    const parts = [];
    for (const target of request.targets) {
      // safePath refuses paths outside the repository (absolute, .., symlinks out).
      const file = await ctx.safePath(target);
      const content = await readFile(file, 'utf8');
      parts.push({ key: 'related', content: \`### \${target}\\n\\n\${content}\`, files: [target] });
    }
    return { parts, notices: [] };
  },
});
`;

const parser = (name: string) => `/**
 * ${name}: a parser plugin. It turns the model's final text into an object and validates it
 * against the role's output schema (ctx.validate reports every violation).
 *
 * Use it in a role:   parser: ${name}
 */
import { definePlugin, errors } from 'supervisor/plugin';

export default definePlugin({
  kind: 'parser',
  name: '${name}',
  description: 'Reads the answer as one JSON object (edit me)',
  parse(text, ctx) {
    let value: unknown;
    try {
      value = JSON.parse(text.trim());
    } catch (cause) {
      throw errors.parseInvalidJson(\`The answer is not JSON: \${(cause as Error).message}\`);
    }
    return ctx.validate(value);
  },
});
`;

const sandbox = (name: string) => `/**
 * ${name}: a sandbox plugin. It gets the command supervisor would spawn (the CLI of an attempt,
 * or a gate) with the worktree, the scratch folder and the policy (network mode, allowed
 * host:port entries, the adapter's configuration files, limits), and returns the command to
 * spawn instead. This one runs the command at a lower CPU priority through \`nice\`: replace
 * it with your runtime (a container, a VM, a jail) and grant exactly what the policy says.
 *
 * Use it in a role:   sandbox: { name: ${name} }   or:  supervisor run <role> --sandbox ${name}
 */
import { definePlugin } from 'supervisor/plugin';

export default definePlugin({
  kind: 'sandbox',
  name: '${name}',
  description: 'Runs the command at a lower CPU priority (edit me)',
  // Can this sandbox run here? If not, say what is missing and how to get it (doctor shows it).
  available(ctx) {
    return ctx.which('nice') ? { ok: true } : { ok: false, missing: 'nice (coreutils)', hint: 'install coreutils' };
  },
  // The command to spawn instead. request.policy.network says none | allow | open; a real
  // sandbox enforces it (ctx.startEgressProxy gives an allowlist proxy for "allow").
  wrap(request, ctx) {
    const { bin, args, env } = request.command;
    return { bin: ctx.which('nice') ?? 'nice', args: ['-n', '10', bin, ...args], env };
  },
});
`;

export const STARTERS: Record<PluginKind, (name: string) => string> = { adapter, packer, parser, sandbox };
