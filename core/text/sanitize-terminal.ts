/**
 * The one sanitiser for untrusted text printed for a person (model answers, CLI output, file
 * names, run logs). A terminal obeys control sequences: ESC starts CSI/OSC sequences (colours,
 * cursor moves, the window title, OSC 52 clipboard writes), a lone CR overwrites the line, BEL
 * and backspace hide text, and bidi overrides reorder it. Each is shown as a visible escape
 * instead (`\x1b`, `\r`, `\u202e`), so what is printed is what the text says. Newlines and tabs
 * stay. Use it for human output only: --json is escaped by JSON itself.
 */

// C0 controls except \t and \n, DEL, C1 controls, and the Unicode bidi embeddings/overrides/isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\r') return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function sanitizeTerminal(text: string): string {
  // A CRLF line end is a line end, not an overwrite.
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, visible);
}
