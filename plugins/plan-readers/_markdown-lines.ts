/**
 * A plan's lines with what the plan-markdown reader needs to know of each: inside a fenced code
 * block or not, and the ATX heading it is, if any (setext headings are not recognised).
 *
 * Fences follow CommonMark (up to 3 spaces, 3 or more backticks or tildes, an info string
 * without backticks for a backtick fence; closed by a bare fence of the same character at least
 * as long, or by the end of the text), plus the nesting plans are written with: inside a fence,
 * a fence of the same character WITH an info string opens a nested block that the next bare
 * fence closes. Seed 003 nests ```json inside ```markdown that way; read strictly, its fences
 * would pair up wrongly and swallow the next task's heading. A plan that nests in CommonMark's
 * way (a longer outer fence) reads the same under both rules.
 */

export interface PlanLine {
  text: string;
  /** 1-based. */
  number: number;
  /** Inside a fenced code block (the fence lines included). */
  fenced: boolean;
  heading?: { level: number; text: string };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

export function planLines(text: string): PlanLine[] {
  const stack: { char: string; length: number }[] = [];
  return text.replace(/^\ufeff/, '').split('\n').map((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const fence = FENCE.exec(line);
    const info = fence?.[2]!.trim() ?? '';
    const char = fence?.[1]![0];
    if (fence && !(char === '`' && info.includes('`'))) {
      const top = stack[stack.length - 1];
      const length = fence[1]!.length;
      if (!top) stack.push({ char: char!, length });
      else if (char === top.char && info === '' && length >= top.length) stack.pop();
      else if (char === top.char && info !== '') stack.push({ char, length });
      return { text: line, number: i + 1, fenced: true };
    }
    if (stack.length) return { text: line, number: i + 1, fenced: true };
    const heading = HEADING.exec(line);
    return { text: line, number: i + 1, fenced: false, ...(heading ? { heading: { level: heading[1]!.length, text: (heading[2] ?? '').trim() } } : {}) };
  });
}
