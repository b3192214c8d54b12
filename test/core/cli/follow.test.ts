/** The follow loop of `runs tail -f` and `workflow logs -f`: how it ends, and that nothing read is lost. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { followUntilEnd } from '../../../core/cli/follow.ts';

/** Text written in chunks; each poll returns the new whole lines, and with flush the partial last one. */
function growingText(chunks: string[]) {
  let unread = '';
  return {
    written: () => chunks.length === 0,
    write: () => (unread += chunks.shift() ?? ''),
    poll(flush = false): string[] {
      const end = flush ? unread.length : unread.lastIndexOf('\n') + 1;
      const lines = unread.slice(0, end).split('\n').filter(Boolean);
      unread = unread.slice(end);
      return lines;
    },
  };
}

const noInterrupt = () => () => {};

describe('followUntilEnd', () => {
  it('prints all the writer wrote, its partial last line too, once the writer stops', async () => {
    const text = growingText(['a\nb', 'c\n', 'd']);
    const printed: string[] = [];
    // The writer writes its last chunk right after it is seen alive: that chunk must still be read.
    const writing = () => {
      const alive = !text.written();
      text.write();
      return alive;
    };
    const code = await followUntilEnd(text, { pollMs: 1, onInterrupt: noInterrupt, print: (lines) => printed.push(...lines), writing });
    assert.equal(code, 0);
    assert.deepEqual(printed, ['a', 'bc', 'd']);
  });

  it('stops when what was read shows the end, though the writer is still there', async () => {
    const text = growingText(['start\n', 'END\npartial', 'never\n']);
    const printed: string[] = [];
    const code = await followUntilEnd(text, {
      pollMs: 1,
      onInterrupt: noInterrupt,
      print: (lines) => printed.push(...lines),
      writing: () => (text.write(), true),
      ended: () => printed.includes('END'),
    });
    assert.equal(code, 0);
    assert.deepEqual(printed, ['start', 'END', 'partial']);
  });

  it('on Ctrl-C prints what is left and returns 130, and stops listening for it', async () => {
    const text = growingText(['one\ntw', 'o\n']);
    const printed: string[] = [];
    let interrupt: (signal: 'SIGINT') => void = () => {};
    let listening = false;
    const onInterrupt = (handler: (signal: 'SIGINT' | 'SIGHUP' | 'SIGTERM') => void) => ((interrupt = handler), (listening = true), () => void (listening = false));
    const code = await followUntilEnd(text, {
      pollMs: 60_000,
      onInterrupt,
      print: (lines) => (printed.push(...lines), interrupt('SIGINT')),
      writing: () => (text.write(), true),
    });
    assert.equal(code, 130);
    assert.deepEqual(printed, ['one', 'tw']);
    assert.equal(listening, false);
  });
});
