/** A real PackContext (the core's) for driving one packer plugin directly. */
import { createPackContext } from '../../../core/context/packers.ts';
import { createPathGuard } from '../../../core/context/path-safety.ts';
import type { PackContext, PackRequest } from '../../../core/plugin-api/contracts.ts';
import { packerRegistry } from '../../core/context/_helpers.ts';

export function packContextFor(repoRoot: string, env: Record<string, string | undefined> = process.env): PackContext & { notices: string[]; warnings: string[] } {
  const notices: string[] = [];
  const warnings: string[] = [];
  const host = { registry: packerRegistry(), guard: createPathGuard(repoRoot), env, notice: (m: string) => void notices.push(m), warn: (m: string) => void warnings.push(m) };
  return Object.assign(createPackContext(host, []), { notices, warnings });
}

export function request(repoRoot: string, over: Partial<PackRequest> = {}): PackRequest {
  return { repoRoot, include: ['**/*'], exclude: [], targets: [], context: {}, style: 'markdown', ...over };
}
