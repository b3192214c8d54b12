/**
 * The translation from argv to the use cases' inputs (core/app), apart from the use cases: the
 * real yargs options parse the command line, the translator fills a typed input, nothing else
 * runs. MCP's translation is beside it: `cli` as a string or a list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import yargs from 'yargs';
import { workflowCheckInput } from '../../../core/cli/commands/workflow/check.ts';
import { workflowRunInput } from '../../../core/cli/commands/workflow/run.ts';
import { runInputFromArgs } from '../../../core/command/run-options.ts';
import { driveInputFromArgs, driveOptions } from '../../../core/command/workflow-drive.ts';
import { cliList, driveInput } from '../../../core/mcp/tools/workflow.ts';
import { runToolInput } from '../../../core/mcp/tools/run.ts';
import type { Args } from '../../../core/command/command.ts';
import { thrownCode } from '../../helpers/thrown-code.ts';

function parse(argv: string[], build: (y: ReturnType<typeof yargs>) => ReturnType<typeof yargs> = (y) => y): Args {
  return build(driveOptions(yargs(argv)) as ReturnType<typeof yargs>).parseSync() as Args;
}

describe('argv → use case input', () => {
  it('workflow run: every option lands in its typed field, numbers as numbers, lists as lists', () => {
    const args = parse(['plan.yaml', '--jobs', '3', '--max-cost-usd', '2.5', '--cli', 'replay', '--cli', 'worker=claude', '--sandbox', 'bwrap', '--allow-command', 'npm test', '--allow-host', 'x.dev:443', '--pass-env', 'TOKEN', '--quota-wait', '90s', '--base', 'main', '--loosen'], (y) => y.option('base', { type: 'string' }));
    args.file = 'plan.yaml';
    assert.deepEqual(workflowRunInput(args), {
      cli: ['replay', 'worker=claude'],
      jobs: 3,
      maxCostUsd: 2.5,
      quotaWait: '90s',
      sandbox: 'bwrap',
      allowHosts: ['x.dev:443'],
      passEnv: ['TOKEN'],
      allowCommands: ['npm test'],
      onEvent: [],
      approveAll: false,
      loosen: true,
      file: 'plan.yaml',
      base: 'main',
    });
  });

  it('nothing given: empty lists and no settings, so recorded settings stay', () => {
    const input = driveInputFromArgs(parse([]));
    assert.deepEqual(input, { cli: [], allowHosts: [], passEnv: [], allowCommands: [], onEvent: [], approveAll: false, loosen: false });
  });

  it('a number out of range is a usage error before any use case runs', () => {
    assert.equal(thrownCode(() => driveInputFromArgs(parse(['--jobs', '0']))), 'USAGE');
    assert.equal(thrownCode(() => driveInputFromArgs(parse(['--max-rounds', 'many']))), 'USAGE');
  });

  it('workflow check: file, reader, cli, sandbox, allowed commands', () => {
    assert.deepEqual(workflowCheckInput({ _: [], file: 'p.yaml', cli: ['codex'], sandbox: 'bwrap', 'allow-command': ['*'] }), { file: 'p.yaml', cli: ['codex'], allowCommands: ['*'], sandbox: 'bwrap' });
  });

  it('run: the role, targets, numbers within the role schema ranges, --no-worktree', async () => {
    const input = await runInputFromArgs({ _: [], role: 'reviewer', target: ['a.ts'], timeout: '30', worktree: false, 'allow-command': ['npm test'] }, { task: 'Review' });
    assert.deepEqual([input.role, input.task, input.targets, input.timeoutSec, input.worktree, input.allowCommands, input.secretScan], ['reviewer', 'Review', ['a.ts'], 30, false, ['npm test'], true]);
    await assert.rejects(runInputFromArgs({ _: [], role: 'reviewer', gate: [''] }, { task: 'x' }), (error: { code?: string }) => error.code === 'USAGE');
  });
});

describe('MCP input → use case input', () => {
  it('cli as a string or a list, on every tool', () => {
    assert.deepEqual(cliList('claude'), ['claude']);
    assert.deepEqual(cliList(['replay', 'worker=claude']), ['replay', 'worker=claude']);
    assert.deepEqual(driveInput({ cli: 'codex', allow_commands: ['npm test'], jobs: 2 }).cli, ['codex']);
    assert.equal(runToolInput({ role: 'reviewer', task: 't', cli: ['codex'] }).cli, 'codex');
    assert.equal(runToolInput({ role: 'reviewer', task: 't', cli: 'codex' }).cli, 'codex');
    assert.equal(thrownCode(() => runToolInput({ role: 'reviewer', task: 't', cli: ['codex', 'claude'] })), 'USAGE');
  });
});
