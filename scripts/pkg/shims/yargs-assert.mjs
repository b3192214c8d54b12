// yargs only uses node:assert for two internal invariants. Loading node:assert costs ~3 ms at
// every start (it pulls in its error formatting and opens stderr to check for colours).
export function strictEqual(actual, expected, message) {
  if (actual !== expected) throw new Error(message ?? `Expected ${String(actual)} to be ${String(expected)}`);
}

export function notStrictEqual(actual, expected, message) {
  if (actual === expected) throw new Error(message ?? `Expected a value other than ${String(expected)}`);
}
