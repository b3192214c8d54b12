/** none: no sandbox. The command runs as the adapter or gate gave it (the default). */
import { definePlugin } from '../../core/plugin-api/index.ts';

export default definePlugin({
  kind: 'sandbox',
  name: 'none',
  description: 'No sandbox: the CLI runs with your user\'s rights, in its worktree by convention only',
  available: () => ({ ok: true }),
  wrap: (request) => ({ ...request.command }),
});
