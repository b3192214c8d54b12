/** Loads a plan file from a fresh repository, with the registry and role folders a run would use. */
import { join } from 'node:path';
import { loadRegistry } from '../../core/plugins/load.ts';
import { installPluginApiResolution } from '../../core/plugins/plugin-api-resolution.ts';
import { loadWorkflow } from '../../core/workflow/load-workflow.ts';
import type { Workflow } from '../../core/plugin-api/workflow-model.ts';
import { makeRepo, tempDir } from './git-repo.ts';

/** A repository holding `files` (plugins in .supervisor/plugins/ included); loads `file` from it. */
export async function loadPlanFrom(files: Record<string, string>, file: string, reader?: string): Promise<Workflow> {
  const repoRoot = await makeRepo(files);
  const homeDir = await tempDir('sv-home-');
  const registry = await loadRegistry({ repoRoot, homeDir, extraPaths: [], cwd: repoRoot, userPlugins: true, trustedRepo: true, installPluginApi: installPluginApiResolution });
  return loadWorkflow(join(repoRoot, file), { registry, repoRoot, homeDir, reader });
}
