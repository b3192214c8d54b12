/**
 * Resources: each run (`supervisor://runs/<id>`: its summary, result and event log) and each
 * workflow (`supervisor://workflows/<id>`: its status), newest first. When a run or workflow
 * appears (started here or by a command line: the state folders are watched), the client gets
 * `notifications/resources/list_changed`.
 */
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from './sdk.ts';
import type { CliContext } from '../command/context.ts';
import { listRuns, readRun } from '../runs/runs-store.ts';
import { isRunId } from '../run/run-id.ts';
import { statePaths } from '../state-dir.ts';
import { readWorkflowStatus } from '../workflow/engine/status.ts';
import { workflowsDir } from '../workflow/engine/names.ts';
import { listWorkflowIds } from '../workflow/engine/store.ts';

/** Runs listed at most (newest first): a long-lived repository holds thousands. */
const LISTED_RUNS = 200;
const JSON_TYPE = 'application/json';

export const runUri = (id: string) => `supervisor://runs/${id}`;
export const workflowUri = (id: string) => `supervisor://workflows/${id}`;

function json(uri: URL, value: unknown) {
  return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }] };
}

/** Which runs and workflows exist: a change means the resource list changed. */
function snapshot(repoRoot: string): string {
  const runsDir = statePaths(repoRoot).runs;
  const runs = existsSync(runsDir) ? readdirSync(runsDir).filter(isRunId).sort() : [];
  return `${runs.join(',')}|${listWorkflowIds(repoRoot).sort().join(',')}`;
}

export interface ResourceWatch {
  /** Compares the runs and workflows with the last look; tells the client when the list changed. */
  check(): void;
  close(): void;
}

/** Registers both resource templates and watches their folders (runs a command line starts appear too). */
export function registerResources(server: McpServer, ctx: CliContext): ResourceWatch {
  const repoRoot = ctx.repoRoot;
  const notice = (message: string) => ctx.warn(`notice: ${message}`);
  server.registerResource(
    'run',
    new ResourceTemplate(runUri('{id}'), {
      list: () => ({
        resources: listRuns(repoRoot, { limit: LISTED_RUNS, onNotice: notice }).map((run) => ({
          uri: runUri(run.run_id),
          name: run.run_id,
          title: `${run.role ?? 'run'} ${run.status ?? run.state}`,
          mimeType: JSON_TYPE,
        })),
      }),
    }),
    { title: 'A run: its result and event log', mimeType: JSON_TYPE },
    (uri, { id }) => {
      const record = readRun(repoRoot, String(id), notice);
      return json(uri, { ...record.summary, result: record.result, events: record.events });
    },
  );
  server.registerResource(
    'workflow',
    new ResourceTemplate(workflowUri('{id}'), {
      list: () => ({
        resources: listWorkflowIds(repoRoot).map((id) => ({ uri: workflowUri(id), name: id, title: `workflow ${id}`, mimeType: JSON_TYPE })),
      }),
    }),
    { title: "A workflow's status and its tasks' states", mimeType: JSON_TYPE },
    (uri, { id }) => json(uri, readWorkflowStatus(repoRoot, String(id))),
  );
  let last = snapshot(repoRoot);
  const check = () => {
    const now = snapshot(repoRoot);
    if (now === last) return;
    last = now;
    if (server.isConnected()) server.sendResourceListChanged();
    watchFolders();
  };
  // A folder that does not exist yet is watched once a check finds it there.
  const watchers = new Map<string, FSWatcher>();
  const watchFolders = () => {
    for (const dir of [statePaths(repoRoot).runs, workflowsDir(repoRoot)]) {
      if (watchers.has(dir) || !existsSync(dir)) continue;
      try {
        const watcher = watch(dir, () => check()).unref();
        watcher.on('error', () => void watchers.delete(dir));
        watchers.set(dir, watcher);
      } catch {
        // Not watchable (a file system without notifications): the server's own runs still notify.
      }
    }
  };
  watchFolders();
  return {
    check,
    close: () => {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
