/** `supervisor roles list | show <name> | validate [<file>...]`: inspect and check roles. */
// Node built-ins are imported statically: the single binary cannot import them dynamically.
import { basename, resolve } from 'node:path';
import type { RoleFileCache } from '../../roles/load-role.ts';
import { defineCommand } from '../../command/command.ts';
import { renderTable } from '../../text/table.ts';
import { roleCheckingOptions as checkingOptions } from '../../command/role-arg.ts';
import { looksLikeRoleFile } from '../../roles/load-options.ts';
import { listArg } from '../../command/read-args.ts';

const list = defineCommand({
  command: 'list',
  describe: 'List the roles of this repository, your home folder and the built-ins, with where each comes from',
  example: { command: '$0 roles list', describe: 'every role: its cli, what it extends and the file it comes from' },
  async run(_args, ctx) {
    const { listRoles } = await import('../../roles/load-role.ts');
    const { displayPath } = await import('../../roles/render-role.ts');
    const roles = await listRoles(await checkingOptions(ctx));
    if (ctx.options.json) {
      ctx.out(JSON.stringify(roles, null, 2));
      return 0;
    }
    const rows = roles.map((r) => [
      r.name,
      r.cli ?? '-',
      r.extends ?? '-',
      r.base_role ?? '-',
      displayPath(r.file, ctx.deps.cwd),
      [r.error ? `INVALID (${r.error.code}): run supervisor roles validate` : '', r.shadows.length ? `hides ${r.shadows.length} other` : ''].filter(Boolean).join('; '),
    ]);
    ctx.out(renderTable(['NAME', 'CLI', 'EXTENDS', 'BASE ROLE', 'FILE', 'NOTE'], rows));
    return 0;
  },
});

const show = defineCommand({
  command: 'show <name>',
  describe: 'Show a role after inheritance, and which file gave each field',
  example: { command: '$0 roles show reviewer', describe: 'the merged reviewer role, each field with the file it came from' },
  builder: (y) => y.positional('name', { type: 'string', describe: 'Role name, or the path of a role file' }),
  async run(args, ctx) {
    const { loadRoleDetailed, loadRoleFileDetailed } = await import('../../roles/load-role.ts');
    const { renderRole } = await import('../../roles/render-role.ts');
    const name = String(args.name);
    const opts = await checkingOptions(ctx);
    const loaded = looksLikeRoleFile(name) ? await loadRoleFileDetailed(resolve(ctx.deps.cwd, name), opts) : await loadRoleDetailed(name, opts);
    if (ctx.options.json) ctx.out(JSON.stringify({ ...loaded.role, chain: loaded.chain.map((f) => f.path) }, null, 2));
    else ctx.out(renderRole(loaded, ctx.deps.cwd));
    return 0;
  },
});

interface Check {
  file: string;
  name: string;
  ok: boolean;
  error?: { code: string; message: string; hint?: string; details: Record<string, unknown> };
}

const validate = defineCommand({
  command: 'validate [files..]',
  describe: 'Check every role (or the given role files) and report every problem; exit 0 only if all are valid',
  example: { command: '$0 roles validate .supervisor/roles/reviewer.yaml', describe: 'check one role file and report every problem' },
  builder: (y) => y.positional('files', { type: 'string', array: true, describe: 'Role files to check (default: every role in every folder)' }),
  async run(args, ctx) {
    const roles = await import('../../roles/load-role.ts');
    const { toSupervisorError } = await import('../../command/render-error.ts');
    const { displayPath } = await import('../../roles/render-role.ts');
    const opts = await checkingOptions(ctx);
    const given = listArg(args, 'files');
    const cache: RoleFileCache = new Map(); // overlays share their parents' parsed files
    const targets = given.length
      ? given.map((f) => ({ file: resolve(ctx.deps.cwd, f), load: () => roles.loadRoleFileDetailed(resolve(ctx.deps.cwd, f), opts) }))
      : (await roles.listRoleFiles(opts)).map((f) => ({ file: f.path, load: () => roles.loadListedRoleFile(f, opts, cache) }));
    const checks: Check[] = [];
    for (const target of targets) {
      const name = basename(target.file).replace(/\.ya?ml$/, '');
      try {
        await target.load();
        checks.push({ file: target.file, name, ok: true });
      } catch (thrown) {
        checks.push({ file: target.file, name, ok: false, error: toSupervisorError(thrown).toJSON() });
      }
    }
    const failed = checks.filter((c) => !c.ok);
    if (ctx.options.json) {
      ctx.out(JSON.stringify({ ok: failed.length === 0, checked: checks.length, invalid: failed.length, roles: checks }, null, 2));
    } else {
      for (const check of checks) {
        if (check.ok) ctx.out(`ok       ${displayPath(check.file, ctx.deps.cwd)}`);
        else {
          ctx.warn(`error [${check.error!.code}]: ${check.error!.message}`);
          if (check.error!.hint) ctx.warn(`hint: ${check.error!.hint}`);
        }
      }
      ctx.out(`${checks.length} role file${checks.length === 1 ? '' : 's'} checked, ${failed.length} invalid`);
    }
    return failed.length ? 2 : 0;
  },
});

export default defineCommand({
  command: 'roles',
  describe: 'List, show and validate roles',
  subcommands: [list, show, validate],
});
