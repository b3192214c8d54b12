/**
 * git-diff: what is changing. The staged diff (`git diff --cached`) as part `git_diff`, the
 * unstaged diff too when the context asks (`git_diff_unstaged: true`), and with
 * "$CHANGED_FILES" in the include list the full content of every file in the staged diff as
 * part `changed_files` (targets left out: the core packs those already).
 *
 * Context options: `git_diff: true` or "git diff --cached" in `include` → staged diff;
 * "$CHANGED_FILES" in `include` (or `changed_files: true`) → changed files;
 * `git_diff_unstaged: true` → unstaged diff. Chosen as a packer with none of these, it gives
 * the staged diff.
 */
import { definePlugin, type PackContext, type PackRequest } from '../../core/plugin/index.ts';
import { readFiles, skippedNotices } from './_read-files.ts';
import { renderMarkdownFile } from './_render.ts';

const GIT_TIMEOUT_MS = 30_000;

interface Wanted {
  staged: boolean;
  unstaged: boolean;
  changedFiles: boolean;
}

function wanted(context: PackRequest['context']): Wanted {
  const include = Array.isArray(context.include) ? context.include : [];
  const want: Wanted = {
    staged: context.git_diff === true || include.includes('git diff --cached'),
    unstaged: context.git_diff_unstaged === true,
    changedFiles: context.changed_files === true || include.includes('$CHANGED_FILES'),
  };
  if (!want.staged && !want.unstaged && !want.changedFiles && context.git_diff !== false) want.staged = true;
  return want;
}

async function git(ctx: PackContext, request: PackRequest, args: string[]): Promise<{ ok: boolean; stdout: string; error: string }> {
  const result = await ctx.runProcess({
    bin: 'git',
    args: ['-c', 'core.quotepath=off', ...args],
    cwd: request.repoRoot,
    env: { GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
    timeoutMs: GIT_TIMEOUT_MS,
  });
  const ok = result.exitCode === 0 && !result.timedOut && !result.notFound;
  const error = result.notFound ? 'git is not installed' : result.timedOut ? 'git timed out' : result.stderr.trim().split('\n')[0] ?? '';
  return { ok, stdout: result.stdout, error };
}

const DIFF_ARGS = ['diff', '--no-color', '--no-ext-diff', '--no-textconv'];

function fenced(title: string, diff: string): string {
  let fence = '```';
  while (diff.includes(fence)) fence += '`';
  return `## ${title}\n\n${fence}diff\n${diff}\n${fence}`;
}

export default definePlugin({
  kind: 'packer',
  name: 'git-diff',
  description: 'The staged diff (git diff --cached), optionally the unstaged one, and $CHANGED_FILES in full',
  async pack(request, ctx) {
    const want = wanted(request.context);
    const notices: string[] = [];
    const diffs: string[] = [];
    const files: string[] = [];
    for (const [on, title, extra] of [
      [want.staged, 'Git Diff (Staged)', ['--cached']],
      [want.unstaged, 'Git Diff (Unstaged)', []],
    ] as const) {
      if (!on) continue;
      const result = await git(ctx, request, [...DIFF_ARGS, ...extra]);
      if (!result.ok) notices.push(`git-diff: no diff: ${result.error}`);
      else if (result.stdout.trim()) diffs.push(fenced(title, result.stdout.replace(/\n$/, '')));
    }
    const parts = [];
    if (diffs.length) parts.push({ key: 'git_diff', content: diffs.join('\n\n') });

    if (want.changedFiles) {
      const names = await git(ctx, request, ['diff', '--cached', '--name-only', '-z', '--diff-filter=d']);
      if (!names.ok) notices.push(`git-diff: no changed files: ${names.error}`);
      const targets = new Set(request.targets);
      const changed = names.ok ? names.stdout.split('\0').filter((p) => p && !targets.has(p)).sort() : [];
      if (changed.length) {
        const report = await readFiles(changed, ctx);
        notices.push(...skippedNotices('git-diff', report));
        if (report.files.length) {
          files.push(...report.files.map((f) => f.path));
          parts.push({ key: 'changed_files', content: ['## Changed Files\n', ...report.files.map(renderMarkdownFile)].join('\n'), files });
        }
      }
    }
    return { parts, notices };
  },
});
