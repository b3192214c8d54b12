/**
 * What a function gave for the last two long texts it saw: a pack's whole text and its one part
 * are often the same text, read more than once (cut into pieces, estimated, counted). Short
 * texts are not kept: comparing them costs about what computing them does.
 */
const MEMO_CHARS = 64 * 1024;
const KEPT = 2;

export function memoLongTexts<T>(compute: (text: string) => T): (text: string) => T {
  const recent: { text: string; value: T }[] = [];
  return (text) => {
    if (text.length < MEMO_CHARS) return compute(text);
    const known = recent.find((r) => r.text === text);
    if (known) return known.value;
    const value = compute(text);
    recent.unshift({ text, value });
    recent.length = Math.min(recent.length, KEPT);
    return value;
  };
}
