/** Every top-level command, in the order `--help` lists them. */
import type { CommandDef } from '../../command/command.ts';
import run from './run.ts';
import runs from './runs.ts';
import prompt from './prompt.ts';
import pack from './pack.ts';
import parse from './parse.ts';
import roles from './roles.ts';
import plugins from './plugins.ts';
import doctor from './doctor.ts';
import emit from './emit.ts';
import workflow from './workflow.ts';
import trust from './trust.ts';
import gc from './gc.ts';
import mcp from './mcp.ts';

export const commands: CommandDef[] = [run, runs, workflow, prompt, pack, parse, roles, plugins, trust, doctor, gc, mcp, emit];
