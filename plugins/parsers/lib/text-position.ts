/** 1-based line and column of an offset, counting lines from a known line at a known offset. */
export function lineAndColumn(text: string, offset: number, from = { offset: 0, line: 1 }): { line: number; column: number } {
  let line = from.line;
  let lineStart = from.offset;
  for (let nl = text.indexOf('\n', from.offset); nl >= 0 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
