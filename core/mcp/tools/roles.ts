/** `roles_list` and `roles_show`: the roles this repository can run, as `roles list/show --json`. */
import { roleCheckingOptions } from '../../command/role-arg.ts';
import { rolesListOutput, rolesShowInput, rolesShowOutput } from '../schemas.ts';
import { defineTool } from '../tool.ts';
import { toolResult } from '../tool-result.ts';

export const rolesList = defineTool({
  name: 'roles_list',
  title: 'List roles',
  description: 'The roles of this repository, the home folder and the built-ins: name, cli, base role, file, and a validation error when one is broken.',
  startsWork: false,
  input: {},
  output: rolesListOutput,
  async call(_args, _extra, { ctx }) {
    const { listRoles } = await import('../../roles/load-role.ts');
    const roles = await listRoles(await roleCheckingOptions(ctx));
    return toolResult({ roles: roles as unknown as Record<string, unknown>[] });
  },
});

export const rolesShow = defineTool({
  name: 'roles_show',
  title: 'Show a role',
  description: "One role after inheritance (extends merged): its cli, context, output schema, gates and settings, and the chain of files it comes from.",
  startsWork: false,
  input: rolesShowInput,
  output: rolesShowOutput,
  async call({ name }, _extra, { ctx }) {
    const { loadRoleDetailed } = await import('../../roles/load-role.ts');
    const loaded = await loadRoleDetailed(name, await roleCheckingOptions(ctx));
    return toolResult({ ...loaded.role, chain: loaded.chain.map((f) => f.path) });
  },
});
