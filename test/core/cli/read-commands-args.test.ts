/**
 * argv → input for the read-side and housekeeping use cases (gc, pack, runs list/show/tail,
 * workflow logs/show) and MCP runs_list → input, apart from the use cases: the real yargs
 * options parse the command line, the translator fills a typed input, nothing else runs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Readable } from 'node:stream';
import yargs from 'yargs';
import type { Args, CommandDef } from '../../../core/command/command.ts';
import gcCommand, { gcInput } from '../../../core/cli/commands/gc.ts';
import packCommand, { packInput } from '../../../core/cli/commands/pack.ts';
import { runsListInput } from '../../../core/cli/commands/runs.ts';
import { runIdInput } from '../../../core/cli/commands/runs-tail.ts';
import { workflowLogsInput } from '../../../core/cli/commands/workflow/logs.ts';
import { workflowShowInput } from '../../../core/cli/commands/workflow/show.ts';
import { runsListToolInput } from '../../../core/mcp/tools/runs.ts';
import { thrownCode } from '../../helpers/thrown-code.ts';

function parse(command: CommandDef, argv: string[]): Args {
  const built = command.builder ? command.builder(yargs(argv)) : yargs(argv);
  return built.parseSync() as Args;
}

describe('argv → read and housekeeping use case inputs', () => {
  it('gc: the age as given (checked by the use case), the four switches', () => {
    assert.deepEqual(gcInput(parse(gcCommand, ['--older-than', '7d', '--dry-run', '--include-workflows', '--include-kept'])), { olderThan: '7d', dryRun: true, includeUnmerged: false, includeWorkflows: true, includeKept: true });
    assert.deepEqual(gcInput(parse(gcCommand, [])), { dryRun: false, includeUnmerged: false, includeWorkflows: false, includeKept: false });
  });

  it('pack: lists as lists, --context read into sections, --no-secret-scan, counting only with --stats or --json', async () => {
    const ctx = { deps: { cwd: '/', stdin: Readable.from([]) }, options: { json: false } } as never;
    const input = await packInput(parse(packCommand, ['--role', 'reviewer', '--include', 'src/**', '--include', 'lib/**', '--context', 'note=hello', '--budget', '2000', '--style', 'xml', '--no-secret-scan', '--stats']), ctx);
    assert.deepEqual(input, { role: 'reviewer', packers: [], include: ['src/**', 'lib/**'], exclude: [], targets: [], extraContext: { note: 'hello' }, budgetTokens: 2000, style: 'xml', tokenizer: 'chars', secretScan: false, countTokens: true });
    const bare = await packInput(parse(packCommand, []), ctx);
    assert.deepEqual([bare.role, bare.secretScan, bare.countTokens, bare.tokenizer], [undefined, true, false, 'chars']);
  });

  it('runs list: filters as given, a status outside the list is USAGE', () => {
    assert.deepEqual(runsListInput({ _: [], limit: 5, status: 'pass', since: '7d', workflow: 'last', task: 'parse' }), { limit: 5, status: 'pass', since: '7d', workflow: 'last', task: 'parse' });
    assert.deepEqual(runsListInput({ _: [] }), {});
    assert.equal(thrownCode(() => runsListInput({ _: [], status: 'lost' })), 'USAGE');
    assert.equal(thrownCode(() => runsListInput({ _: [], limit: 0 })), 'USAGE');
  });

  it('runs show/tail, workflow logs and show: the positionals', () => {
    assert.deepEqual(runIdInput({ _: [], 'run-id': 'last' }), { id: 'last' });
    assert.deepEqual(workflowLogsInput({ _: [], id: 'wf-1', task: 'parse' }), { id: 'wf-1', task: 'parse' });
    assert.deepEqual(workflowLogsInput({ _: [] }), {});
    assert.deepEqual(workflowShowInput({ _: [], id: 'last', task: 'parse' }), { id: 'last', task: 'parse' });
  });
});

describe('MCP input → read use case input', () => {
  it('runs_list: absent fields stay absent', () => {
    assert.deepEqual(runsListToolInput({ limit: 3, status: 'gaps' }), { limit: 3, status: 'gaps' });
    assert.deepEqual(runsListToolInput({}), {});
  });
});
