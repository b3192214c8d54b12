/**
 * The words a shell of ours is told for a command (launch-line.ts: the launcher's and a
 * standby's): through `env -i`, a program whose name env would read as a variable or an option
 * is never said (it would not be the program run), and neither is such a variable name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandWords } from '../../../core/process/launch-line.ts';

describe('launch line', () => {
  it('says through env -i exactly the variables and words given, each quoted', () => {
    assert.equal(commandWords('/usr/bin/git', { args: ['status', "it's"], env: { A: 'x y', B: undefined } }, '/usr/bin/env'), "/usr/bin/env -i 'A=x y' /usr/bin/git status 'it'\\''s'");
  });

  it('says nothing env would misread: a program with "=" or a leading "-", or such a variable name', () => {
    const env = '/usr/bin/env';
    assert.equal(commandWords('/opt/a=b/git', { args: [], env: {} }, env), null, 'env would take it for a variable and run the next word');
    assert.equal(commandWords('-x', { args: [], env: {} }, env), null);
    assert.equal(commandWords('git', { args: [], env: { '-u': 'x' } }, env), null);
    assert.equal(commandWords('git', { args: [], env: { 'A=B': 'x' } }, env), null);
    assert.equal(commandWords('git', { args: ['a\0b'], env: {} }, env), null, 'no NUL can be said');
  });

  it('for dash, says the variables as assignments before the command, and only identifiers', () => {
    assert.equal(commandWords('git', { args: ['log'], env: { A: '1' } }, null), 'A=1 git log');
    assert.equal(commandWords('git', { args: [], env: { 'A.B': '1' } }, null), null);
  });
});
