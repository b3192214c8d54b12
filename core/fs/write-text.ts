/**
 * A command's text output written to a file the user named (`pack -o`): the text and a final
 * newline when it has none, encoded once and written from that one buffer. Adding the newline
 * to the text first would copy a text of megabytes (and a two-byte one twice: to flatten it,
 * then to encode it); writing through fs/promises would hand it to the thread pool in 512 KiB
 * round trips. The file is created or truncated as `writeFile` would (0666 less the umask).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const NEWLINE = Buffer.from('\n');

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** Writes `text` to `file`, ending with a newline. */
export function writeTextFile(file: string, text: string): void {
  const fd = openSync(file, 'w');
  try {
    writeAll(fd, Buffer.from(text, 'utf8'));
    if (!text.endsWith('\n')) writeAll(fd, NEWLINE);
  } finally {
    closeSync(fd);
  }
}
