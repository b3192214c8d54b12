/** Starter plugin files written by `supervisor plugins new`: typed, commented, working as is. */
import type { PluginKind } from '../plugin-api/contracts.ts';

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
import { definePlugin, renderFiles } from 'supervisor/plugin';

export default definePlugin({
  kind: 'packer',
  name: '${name}',
  description: 'Packs the target files (edit me)',
  async pack(request, ctx) {
    // ctx.readFiles reads only inside the repository (never through a symlink out, never .git)
    // and leaves out files that look like they hold a secret; the report says what it skipped.
    const report = await ctx.readFiles(request.targets);
    const skipped = [...report.outside, ...report.unreadable, ...report.secrets.map((s) => s.path)];
    const notices = skipped.length ? [\`${name}: skipped \${skipped.join(', ')}\`] : [];
    if (report.files.length === 0) return { parts: [], notices };
    const content = renderFiles(report.files, request.style, 'Related', 'related');
    return { parts: [{ key: 'related', content, files: report.files.map((f) => f.path) }], notices, secretsScanned: true };
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

const planReader = (name: string) => `/**
 * ${name}: a plan-reader plugin. It reads a plan file of your own format into supervisor's
 * workflow model; supervisor fills the defaults (worker role, reviewers, max_rounds) and checks
 * the plan (ids, dependencies, cycles, roles, CLIs) before anything runs.
 *
 * Use it:     supervisor workflow check plan.${name}   (or --reader ${name})
 * Check it:   supervisor plugins check .supervisor/plugins/${name}.ts
 */
import { definePlugin } from 'supervisor/plugin';

export default definePlugin({
  kind: 'plan-reader',
  name: '${name}',
  description: 'Reads "- [ ] id: text" checklists as tasks (edit me)',
  // Files ending so are read by this reader when no reader's detect() claims them.
  extensions: ['.${name}'],
  // Optional: claim a file by its name or text (tried before extensions).
  detect: (file, text) => file.endsWith('.${name}') || text.startsWith('# ${name}'),

  read(text, ctx) {
    const tasks = [];
    for (const [index, line] of text.split('\\n').entries()) {
      const match = /^- \\[ \\] ([\\w.-]+): (.+)$/.exec(line);
      if (!match) continue;
      // Record the line, so errors about this task (unknown role, cycle, ...) name it.
      ctx.locate(\`/tasks/\${tasks.length}\`, index + 1);
      tasks.push({ id: match[1]!, title: match[2]!, task: match[2]! });
    }
    if (tasks.length === 0) throw ctx.error({ message: 'no "- [ ] id: text" lines found', line: 1 });
    // Everything else (depends_on, worker, reviewers, cli, model, gates, ...) is optional.
    return { name: '${name} plan', tasks };
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


export const STARTERS: Record<PluginKind, (name: string) => string> = { adapter, packer, parser, 'plan-reader': planReader, sandbox };
