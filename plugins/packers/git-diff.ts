/**
 * git-diff: what is changing. The staged diff (`git diff --cached`) as part `git_diff`, the
 * unstaged diff too when asked, and the full content of every file in the staged diff as part
 * `changed_files` — less the files packed already (`skipFiles`: targets, always_include, ...),
 * the exclude globs and the default ignore list (a staged `.env` is never packed).
 *
 * What to give comes resolved from the core (`request.git`: the "git diff --cached" and
 * "$CHANGED_FILES" sentinels, `git_diff`, `changed_files`, `git_diff_unstaged`); with none, the
 * staged diff.
 */
import picomatch from 'picomatch';
import { definePlugin, renderFence, renderFiles, type GitWanted, type PackContext, type PackRequest } from '../../core/plugin/index.ts';
import { isDefaultIgnored } from './_ignore.ts';
import { readFiles, skippedNotices } from './_read-files.ts';

const GIT_TIMEOUT_MS = 30_000;

const STAGED_ONLY: GitWanted = { staged: true, unstaged: false, changedFiles: false };

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

const fenced = (title: string, diff: string) => `## ${title}\n\n${renderFence(diff, 'diff')}`;

/** The staged files to pack in full: not deleted, not packed already, not excluded or ignored by default. */
function selectChanged(names: string[], request: PackRequest): { paths: string[]; left: string[] } {
  const skip = new Set(request.skipFiles);
  // As the glob packer reads them: a negated exclude ("!x") excludes nothing.
  const patterns = request.exclude.filter((p) => !p.startsWith('!'));
  const excluded = patterns.length ? picomatch(patterns, { dot: true }) : () => false;
  const defaults = request.context.default_ignores !== false;
  const paths: string[] = [];
  const left: string[] = [];
  for (const path of names) {
    if (!path || skip.has(path)) continue;
    if (excluded(path) || (defaults && isDefaultIgnored(path))) left.push(path);
    else paths.push(path);
  }
  return { paths: paths.sort(), left };
}

export default definePlugin({
  kind: 'packer',
  name: 'git-diff',
  description: 'The staged diff (git diff --cached), optionally the unstaged one, and $CHANGED_FILES in full',
  async pack(request, ctx) {
    const want = request.git ?? STAGED_ONLY;
    const notices: string[] = [];
    const diffs: string[] = [];
    // A reviewed range replaces the staged change: its diff, its files.
    const range = want.range ? [want.range.base, want.range.head] : ['--cached'];
    const stagedTitle = want.range ? `Git Diff (${want.range.base.slice(0, 7)}..${want.range.head.slice(0, 7)})` : 'Git Diff (Staged)';
    for (const [on, title, extra] of [
      [want.staged, stagedTitle, range],
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
      const names = await git(ctx, request, ['diff', ...range, '--name-only', '-z', '--diff-filter=d']);
      if (!names.ok) notices.push(`git-diff: no changed files: ${names.error}`);
      const { paths, left } = selectChanged(names.ok ? names.stdout.split('\0') : [], request);
      if (left.length) notices.push(`git-diff: left out ${left.length} changed file${left.length === 1 ? '' : 's'} (excluded or on the default ignore list): ${left.join(', ')}`);
      if (paths.length) {
        const report = await readFiles(paths, ctx);
        notices.push(...skippedNotices('git-diff', report));
        if (report.files.length) {
          const files = report.files.map((f) => f.path);
          parts.push({ key: 'changed_files', content: renderFiles(report.files, request.style, 'Changed Files', 'changed_files'), files });
        }
      }
    }
    return { parts, notices };
  },
});
