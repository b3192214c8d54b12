import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliForModel } from '../../../core/workflow/model-cli.ts';

describe('cliForModel', () => {
  it('maps the built-in model names to their CLIs', () => {
    const cases: [string, string | null][] = [
      ['opus', 'claude'], ['sonnet', 'claude'], ['haiku', 'claude'], ['claude-sonnet-4-5', 'claude'], ['Opus', 'claude'],
      ['gpt-5', 'codex'], ['o3', 'codex'], ['o3-mini', 'codex'], ['o4-mini', 'codex'], ['codex-mini-latest', 'codex'],
      ['gemini-2.5-pro', 'gemini'],
      ['llama-3', null], ['o1', null], ['', null],
    ];
    for (const [model, cli] of cases) assert.equal(cliForModel(model, {}), cli, model);
  });

  it('tries the overrides first, in their order, as globs', () => {
    assert.equal(cliForModel('opus', { opus: 'cline' }), 'cline');
    assert.equal(cliForModel('llama-3-70b', { 'llama-*': 'my-cli', '*': 'other' }), 'my-cli');
    assert.equal(cliForModel('gpt-5', { 'claude-*': 'cline' }), 'codex', 'an override that does not match leaves the table');
  });
});
