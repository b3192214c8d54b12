import { snakeKeys } from '../../text/snake-keys.ts';
import { defineCommand } from '../command.ts';

export default defineCommand({
  command: 'doctor',
  describe: 'Show which CLIs, git and repomix are installed, the plugin folders, and the state folder',
  async run(_args, ctx) {
    const { runDoctor, renderDoctor } = await import('../../doctor.ts');
    const report = await runDoctor(ctx);
    ctx.out(ctx.options.json ? JSON.stringify(snakeKeys(report), null, 2) : renderDoctor(report));
    return 0;
  },
});
