import { snakeKeys } from '../../text/snake-keys.ts';
import { defineCommand } from '../../command/command.ts';

export default defineCommand({
  command: 'doctor',
  describe: 'Show which CLIs, git and repomix are installed, the plugin folders, and the state folder; --sandbox NAME tests a sandbox from inside',
  example: { command: '$0 doctor --sandbox bwrap', describe: 'test the bwrap sandbox from inside (exit 1 when a check fails)' },
  builder: (y) =>
    y.option('sandbox', {
      type: 'string',
      describe: 'Run a self-test inside this sandbox (e.g. bwrap): no capabilities, host writes and sockets refused, an unlisted variable absent. Exit 1 when a check fails',
    }),
  async run(args, ctx) {
    if (typeof args.sandbox === 'string') {
      const { runSandboxSelfTest, renderSelfTest } = await import('../doctor-sandbox.ts');
      const report = await runSandboxSelfTest(ctx, args.sandbox);
      ctx.out(ctx.options.json ? JSON.stringify(snakeKeys(report), null, 2) : renderSelfTest(report));
      return report.ok ? 0 : 1;
    }
    const { runDoctor, renderDoctor } = await import('../doctor.ts');
    const report = await runDoctor(ctx);
    ctx.out(ctx.options.json ? JSON.stringify(snakeKeys(report), null, 2) : renderDoctor(report));
    return 0;
  },
});
