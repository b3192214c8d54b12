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
  /** For each row, the word indexes ending there (its own and through failure links): ends[endsFrom[row] .. endsFrom[row + 1]). */
  private readonly endsFrom: Int32Array;
  private readonly ends: Int32Array;

  constructor(words: readonly string[]) {
    for (const word of words) if (!/^[\x20-\x7e]+$/.test(word)) throw new Error(`secret-keywords: "${word}" is not printable ASCII`);
    this.words = words;
    const lower = words.map((w) => w.toLowerCase());
    const column = this.column;
    let columns = 1;
    for (const word of lower) for (let i = 0; i < word.length; i++) column[word.charCodeAt(i)] ||= columns++;
    // The trie, in typed arrays (-1: no edge): built once a process, so it must be quick to build too.
    const goto = new Int32Array((1 + lower.reduce((n, w) => n + w.length, 0)) * columns).fill(-1);
    const ends: number[][] = [[]];
    lower.forEach((word, index) => {
      let state = 0;
      for (let i = 0; i < word.length; i++) {
        const edge = state * columns + column[word.charCodeAt(i)]!;
        if (goto[edge]! < 0) {
          goto[edge] = ends.length;
          ends.push([]);
        }
        state = goto[edge]!;
      }
      ends[state]!.push(index);
    });
    const states = ends.length;
    const next = new Int32Array(states * columns);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let c = 1; c < columns; c++) {
      const to = goto[c]!;
      if (to >= 0) queue.push(to);
      next[c] = Math.max(to, 0);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      const row = state * columns;
      const failRow = fail[state]! * columns;
      ends[state]!.push(...ends[fail[state]!]!);
      for (let c = 1; c < columns; c++) {
        const to = goto[row + c]!;
        if (to < 0) next[row + c] = next[failRow + c]!;
        else {
          fail[to] = next[failRow + c]!;
          next[row + c] = to;
          queue.push(to);
        }
      }
    }
    for (let i = 0; i < next.length; i++) next[i]! *= columns;
    this.next = next;
    // A row (state × columns) is followed by at least one more entry: its words are ends[endsFrom[row] .. endsFrom[row + 1]).
    const endsFrom = new Int32Array(next.length + 1);
    const flat: number[] = [];
    for (let state = 0; state < states; state++) {
      endsFrom[state * columns] = flat.length;
      flat.push(...new Set(ends[state]));
      endsFrom[state * columns + 1] = flat.length;
    }
    this.endsFrom = endsFrom;
    this.ends = Int32Array.from(flat);
  }

  /** The indexes of the words `text` contains (ASCII case folded), each once, in the order first found. */
  find(text: string): number[] {
    const seen = new Uint8Array(this.words.length);
    const found: number[] = [];
    const { next, ends, endsFrom, column } = this;
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
      for (let e = endsFrom[row]!, stop = endsFrom[row + 1]!; e < stop; e++) {
        const index = ends[e]!;
        if (seen[index] === 0) {
          seen[index] = 1;
          found.push(index);
        }
      }
    }
    return found;
  }
}
