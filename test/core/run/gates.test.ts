import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runGates } from '../../../core/run/gates.ts';
import { gateFeedback, stricterInstructions } from '../../../core/run/feedback.ts';
import { fencedJsonFormat } from '../../../plugins/parsers/fenced-json.ts';
import { runProcess } from '../../../core/process/run-process.ts';
import { tempDir } from '../../helpers/git-repo.ts';

describe('gates', () => {
  it('run through the shell in the workspace and stop at the first failure', async () => {
    const cwd = await tempDir();
    const seen: string[] = [];
    const result = await runGates({
      gates: ['echo ok > gate.txt && cat gate.txt', 'echo broken >&2; exit 3', 'echo never'],
      cwd, env: { PATH: process.env.PATH }, timeoutMs: 5000, graceMs: 100, runProcess,
      onGate: (g) => seen.push(`${g.command}:${g.passed}`),
    });
    assert.equal(result.failed?.exitCode, 3);
    assert.match(result.failed?.output ?? '', /broken/);
    assert.deepEqual(seen, ['echo ok > gate.txt && cat gate.txt:true', 'echo broken >&2; exit 3:false']);
  });

  it('have their own timeout', async () => {
    const result = await runGates({ gates: ['sleep 5'], cwd: await tempDir(), env: process.env, timeoutMs: 200, graceMs: 100, runProcess });
    assert.equal(result.failed?.timedOut, true);
  });
});

describe('retry feedback', () => {
  it('says what was wrong and the exact format', () => {
    const format = fencedJsonFormat({ schemaName: 'review', schema: { type: 'object', required: ['status'], properties: { status: { enum: ['APPROVED', 'REJECTED'] } } } });
    const text = stricterInstructions({ class: 'no_json', detail: 'no fenced json block' }, 1, format);
    assert.match(text, /previous answer could not be used/);
    assert.match(text, /no_json\): no fenced json block/);
    assert.match(text, /```json\n\{\n {2}"status": "APPROVED"\n\}\n```/);
  });

  it('quotes the tail of a failed gate', () => {
    const text = gateFeedback({ command: 'npm test', exitCode: 1, timedOut: false, output: `${'x'.repeat(5000)}\nFAIL: it broke`, durationMs: 1 }, 2);
    assert.match(text, /`npm test` exited with code 1/);
    assert.match(text, /FAIL: it broke/);
    assert.match(text, /earlier characters cut/);
  });
});
