/** Which tools `supervisor mcp` offers: --read-only keeps those that start nothing, --allow-tool narrows, a wrong name is a usage error. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectTools, TOOLS } from '../../../core/mcp/server.ts';
import { SupervisorError } from '../../../core/errors.ts';

const names = (options: { allowTools: string[]; readOnly: boolean }) => selectTools(options).map((t) => t.name);

describe('mcp tool selection', () => {
  it('offers every tool by default, and the tools that start work are run, workflow_run, workflow_approve/reject and workflow_resume', () => {
    assert.deepEqual(names({ allowTools: [], readOnly: false }), TOOLS.map((t) => t.name));
    assert.deepEqual(TOOLS.filter((t) => t.startsWork).map((t) => t.name), ['run', 'workflow_run', 'workflow_approve', 'workflow_reject', 'workflow_resume']);
  });

  it('--read-only leaves out the tools that start work; --allow-tool keeps only the named ones', () => {
    assert.ok(!names({ allowTools: [], readOnly: true }).some((n) => ['run', 'workflow_run', 'workflow_resume'].includes(n)));
    assert.deepEqual(names({ allowTools: ['runs_show', 'run'], readOnly: false }), ['run', 'runs_show']);
    assert.deepEqual(names({ allowTools: ['runs_show', 'run'], readOnly: true }), ['runs_show']);
  });

  it('an unknown name is MCP_UNKNOWN_TOOL with a suggestion; a list --read-only empties is MCP_NO_TOOLS', () => {
    assert.throws(() => names({ allowTools: ['runs_lst'], readOnly: false }), (e: SupervisorError) => e.code === 'MCP_UNKNOWN_TOOL' && /runs_list/.test(e.message) && e.exitCode === 2);
    assert.throws(() => names({ allowTools: ['run'], readOnly: true }), (e: SupervisorError) => e.code === 'MCP_NO_TOOLS' && e.exitCode === 2);
  });
});
