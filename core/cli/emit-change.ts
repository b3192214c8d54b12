/** `__emit --apply`: the replay adapter's canned change, applied in the folder the process runs in. */
import { applyCannedChange } from '../run/canned-change.ts';
import type { Args } from '../command/command.ts';
import type { CliContext } from '../command/context.ts';

/** 0 when the change is in the work tree (applied now or before); 1, with git's reason on stderr, when it does not apply. */
export async function emitCannedChange(args: Args, ctx: CliContext): Promise<number> {
  const patch = String(args.apply);
  const gitDir = typeof args['git-dir'] === 'string' ? args['git-dir'] : undefined;
  const commonDir = typeof args['common-dir'] === 'string' ? args['common-dir'] : undefined;
  const outcome = await applyCannedChange({ patch, workTree: process.cwd(), ...(gitDir && commonDir ? { gitDir, commonDir } : {}) });
  if (outcome.applied) return 0;
  if (outcome.already) {
    ctx.warn(`replay: the canned change ${patch} is applied already; left as it is`);
    return 0;
  }
  ctx.warn(`replay: the canned change ${patch} does not apply to ${process.cwd()}: ${outcome.why}`);
  return 1;
}
