// A node:test reporter that writes one block per failed test (not the suites that hold it):
// its file and name, and its error (whose stack has the line: tsx's output has other lines). scripts/test.mjs prints them after the run, so the
// end of a long log (all that a CI page may show) says what failed.
export default async function* failures(source) {
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, details } = event.data;
    const error = details?.error;
    if (error?.failureType === 'subtestsFailed') continue;
    const cause = error?.cause ?? error;
    const message = String(cause?.stack ?? cause?.message ?? cause ?? 'failed').split('\n').slice(0, 12).join('\n');
    yield `not ok: ${file ?? '?'}: ${name}\n${message.replace(/^/gm, '  ')}\n\n`;
  }
}
