import { errors } from '../../errors.ts';
import { defineCommand } from '../command.ts';

// Placeholder until its issue lands: replaced wholesale by the real command.
export default defineCommand({
  command: 'runs',
  describe: '(runs: not implemented yet)',
  async run() {
    throw errors.notImplemented('supervisor runs');
  },
});
