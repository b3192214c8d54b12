/**
 * The keyword pre-filter of the secret scan (as gitleaks does it): every rule names words one of
 * which any text it reports on contains (lower case), and one pass over a text finds which of
 * all the rules' words it holds, so a rule's regular expression runs only on a text holding one
 * of its own. An Aho-Corasick automaton over the ASCII characters the words use, case folded:
 * a single loop over the text's character codes, whatever the number of words. A character no
 * word has sends the automaton back to its start.
 */

export class KeywordIndex {
  readonly words: readonly string[];
  /** The column of each ASCII code (0: in no word). */
  private readonly column = new Uint8Array(128);
  /** The next state's row (state × columns) for (row + column). */
  private readonly next: Int32Array;
  /** For each row, the indexes of the words that end there (its own and through failure links). */
  private readonly ends = new Map<number, readonly number[]>();
  /** 1 for the rows where some word ends: the loop looks here first. */
  private readonly ending: Uint8Array;

  constructor(words: readonly string[]) {
    for (const word of words) if (!/^[\x20-\x7e]+$/.test(word)) throw new Error(`secret-keywords: "${word}" is not printable ASCII`);
    this.words = words;
    const lower = words.map((w) => w.toLowerCase());
    let columns = 1;
    for (const word of lower) for (const ch of word) this.column[ch.charCodeAt(0)] ||= columns++;
    const goto: number[][] = [[]];
    const ends: number[][] = [[]];
    lower.forEach((word, index) => {
      let state = 0;
      for (const ch of word) state = goto[state]![this.column[ch.charCodeAt(0)]!] ??= (goto.push([]), ends.push([]), goto.length - 1);
      ends[state]!.push(index);
    });
    const next = new Int32Array(goto.length * columns);
    const fail = new Int32Array(goto.length);
    const queue: number[] = [];
    for (let c = 1; c < columns; c++) {
      const to = goto[0]![c];
      if (to !== undefined) queue.push(to);
      next[c] = to ?? 0;
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[fail[state]!]!);
      for (let c = 1; c < columns; c++) {
        const to = goto[state]![c];
        if (to === undefined) next[state * columns + c] = next[fail[state]! * columns + c]!;
        else {
          fail[to] = next[fail[state]! * columns + c]!;
          next[state * columns + c] = to;
          queue.push(to);
        }
      }
    }
    for (let i = 0; i < next.length; i++) next[i]! *= columns;
    this.next = next;
    this.ending = new Uint8Array(next.length);
    ends.forEach((list, state) => {
      if (!list.length) return;
      this.ends.set(state * columns, [...new Set(list)]);
      this.ending[state * columns] = 1;
    });
  }

  /** found[i] is 1 when `text` contains words[i], ASCII case folded. */
  find(text: string): Uint8Array {
    const found = new Uint8Array(this.words.length);
    const { next, ends, ending, column } = this;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      let code = text.charCodeAt(i);
      if (code >= 128) {
        row = 0;
        continue;
      }
      if (code >= 65 && code <= 90) code += 32;
      const c = column[code]!;
      row = c === 0 ? 0 : next[row + c]!;
      if (ending[row] === 1) for (const index of ends.get(row)!) found[index] = 1;
    }
    return found;
  }
}
