import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeTerminal } from '../../../core/text/sanitize-terminal.ts';

describe('sanitizeTerminal', () => {
  it('shows OSC, CSI, BEL, backspace, a lone CR, C1 and bidi controls as visible escapes', () => {
    assert.equal(sanitizeTerminal('\u001b]0;t\u0007'), '\\x1b]0;t\\x07');
    assert.equal(sanitizeTerminal('\u001b]52;c;ZXZpbA==\u001b\\'), '\\x1b]52;c;ZXZpbA==\\x1b\\');
    assert.equal(sanitizeTerminal('a\rb\bc\u009bd\u202ee'), 'a\\rb\\x08c\\x9bd\\u202ee');
  });

  it('keeps text, newlines, tabs and CRLF line ends (as LF)', () => {
    assert.equal(sanitizeTerminal('héllo\twörld ✓\r\nnext\n'), 'héllo\twörld ✓\nnext\n');
  });
});
