/**
 * Prompts handed over as a command-line argument. Linux refuses a single argument over 128 KiB
 * (MAX_ARG_STRLEN), and a prompt that starts with "-" reads as an option, so long or dashed
 * prompts go through stdin where the CLI allows it.
 */
export const MAX_PROMPT_ARG_BYTES = 100_000;

/** True when the prompt can safely be one argument. */
export function fitsInArgument(prompt: string): boolean {
  return Buffer.byteLength(prompt, 'utf8') <= MAX_PROMPT_ARG_BYTES && !prompt.startsWith('-');
}

/**
 * Splits a prompt into an argument and a rest for CLIs that append piped stdin to their prompt
 * argument after a blank line (cline). Cuts at the last blank line that keeps the argument under
 * the limit, so `arg + "\n\n" + rest` is the prompt again; without one, at a newline or space.
 */
export function splitPrompt(prompt: string, limit = MAX_PROMPT_ARG_BYTES): { arg: string; rest: string | undefined } {
  if (Buffer.byteLength(prompt, 'utf8') <= limit) return { arg: prompt, rest: undefined };
  // Characters, not bytes, from here on: a conservative cut for multi-byte text.
  const window = prompt.slice(0, Math.floor(limit / 4));
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(separator);
    if (at > 0) return { arg: prompt.slice(0, at), rest: prompt.slice(at + separator.length) };
  }
  return { arg: window, rest: prompt.slice(window.length) };
}
