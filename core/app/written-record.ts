/**
 * What supervisor wrote for its user, remembered where a repository cannot put anything
 * (SECURITY.md I4): one file per content hash under ~/.supervisor/written/. A plan written by
 * `workflow plan`, the stored plan of a workflow started from the user's own plan, and each
 * workflow's settings.json are recorded; a file whose bytes match a record is the user's.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../fs/atomic-file.ts';

export type WrittenKind = 'plan' | 'workflow-plan' | 'workflow-settings';

export function contentHash(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function recordFile(homeDir: string, hash: string): string {
  return join(homeDir, '.supervisor', 'written', hash);
}

/** Remembers `bytes` as written by supervisor for this user. */
export function recordWritten(homeDir: string, bytes: string | Uint8Array, kind: WrittenKind, path: string): void {
  writeJsonAtomic(recordFile(homeDir, contentHash(bytes)), { kind, path, at: new Date().toISOString() }, { mode: 0o600 });
}

/** Whether these exact bytes were recorded by recordWritten. */
export function wasWritten(homeDir: string, bytes: string | Uint8Array): boolean {
  return existsSync(recordFile(homeDir, contentHash(bytes)));
}

/** A file's bytes, or null when it cannot be read. */
export function readBytes(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
