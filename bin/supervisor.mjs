#!/usr/bin/env node
// Runs supervisor from source: TypeScript through tsx (ESM and CommonJS), no build step.
import { register as registerEsm } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

registerEsm();
registerCjs();
const { main } = await import('../core/cli/main.ts');
const { runEntry } = await import('../core/cli/entry.ts');
const argv = process.argv.slice(2);
runEntry(argv, () => main(argv));
