/** The `code` of the error a call throws (tests assert on codes, not messages); no throw fails the test. */
import assert from 'node:assert/strict';

export function thrownCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  assert.fail('expected an error');
}
