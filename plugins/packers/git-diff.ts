/**
 * git-diff: what is changing. The staged diff (`git diff --cached`) as part `git_diff`, the
 * unstaged diff too when asked, and the full content of every file in the staged diff as part
 * `changed_files` — less the files packed already (`skipFiles`: targets, always_include, ...).
 * Both honour the glob packer's exclusions: the exclude globs, the default ignore list,
 * .gitignore and `.git/` (a staged `.env` is never packed, neither whole nor as its diff); and
 * a file whose diff or content looks like it holds a secret is left out, with a notice naming
 * the file and the rule.
 *
 * What to give comes resolved from the core (`request.git`: the "git diff --cached" and
 * "$CHANGED_FILES" sentinels, `git_diff`, `changed_files`, `git_diff_unstaged`); with none, the
 * staged diff.
 */
import picomatch from 'picomatch';
import { definePlugin, gitSafetyArgs, SupervisorError, isDefaultIgnored, renderFence, renderFiles, secretNotice, type GitWanted, type PackContext, type PackRequest } from '../../core/plugin-api/index.ts';
import { scanTexts, splitDiff } from './_diff-files.ts';
import { skippedNotices } from './_skipped-notices.ts';

const GIT_TIMEOUT_MS = 30_000;

const STAGED_ONLY: GitWanted = { staged: true, unstaged: false, changedFiles: false };

/**
 * The packer's git in the repository: every command with NO_HOOKS and the driver guard of its
 * config, read once per pack (no CLI of the run works in the folder while it is packed; reading
 * the guard before each of the six commands doubled their processes).
 */
type Git = (args: string[], stdin?: string) => Promise<{ ok: boolean; stdout: string; error: string }>;

function packerGit(ctx: PackContext, request: PackRequest): Git {
  let safety: Promise<string[]> | undefined;
  return async (args, stdin) => {
    safety ??= gitSafetyArgs(request.repoRoot);
    const result = await ctx.runProcess({
      ...(stdin === undefined ? {} : { stdin }),
      bin: 'git',
      // No hooks, fsmonitor, filters, merge drivers or pager of the repository's config run (DIFF_ARGS: no external diff or textconv).
      args: [...(await safety), '-c', 'core.quotepath=off', ...args],
      cwd: request.repoRoot,
      env: { GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
      timeoutMs: GIT_TIMEOUT_MS,
    });
    const ok = result.exitCode === 0 && !result.timedOut && !result.notFound;
    const error = result.notFound ? 'git is not installed' : result.timedOut ? 'git timed out' : result.stderr.trim().split('\n')[0] ?? '';
    return { ok, stdout: result.stdout, error };
  };
}

const DIFF_ARGS = ['diff', '--no-color', '--no-ext-diff', '--no-textconv'];

const fenced = (title: string, diff: string) => `## ${title}\n\n${renderFence(diff, 'diff')}`;

/** Files of the repository the glob packer would not pack: excluded, default-ignored, gitignored, in `.git/`. */
async function createExclusion(request: PackRequest, git: Git, names: string[]): Promise<(path: string) => boolean> {
  // As the glob packer reads them: a negated exclude ("!x") excludes nothing.
  const patterns = request.exclude.filter((p) => !p.startsWith('!'));
  const excluded = patterns.length ? picomatch(patterns, { dot: true }) : () => false;
  const defaults = request.context.default_ignores !== false;
  const ignored = request.context.gitignore === false ? new Set<string>() : await gitignored(git, names);
  return (path) => excluded(path) || (defaults && isDefaultIgnored(path)) || ignored.has(path) || path.split('/').some((s) => s.toLowerCase() === '.git');
}

/** The names among `names` that .gitignore rules match, tracked or not (as the glob packer judges them). */
async function gitignored(git: Git, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  // Exit 1: none of them is ignored; stdout names the ignored ones either way.
  const result = await git(['check-ignore', '--no-index', '--stdin', '-z'], names.map((n) => `${n}\0`).join(''));
  return new Set(result.stdout.split('\0').filter(Boolean));
}

/** `git diff --name-status --no-renames -z`: a status letter, then its path, each ended by NUL. */
function nameStatus(out: string): { status: string; path: string }[] {
  const fields = out.split('\0');
  const entries: { status: string; path: string }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i + 1]) entries.push({ status: fields[i]!.charAt(0), path: fields[i + 1]! });
  return entries;
}

/** The staged files to pack in full: not packed already, not excluded. */
function selectChanged(names: string[], request: PackRequest, excluded: (path: string) => boolean): { paths: string[]; left: string[] } {
  const skip = new Set(request.skipFiles);
  const paths: string[] = [];
  const left: string[] = [];
  for (const path of names) {
    if (!path || skip.has(path)) continue;
    if (excluded(path)) left.push(path);
    else paths.push(path);
  }
  return { paths: paths.sort(), left };
}

/** A diff less the files the glob packer would not pack and the files whose diff holds a secret, each left out with a notice. */
async function filterDiff(diff: string, excluded: (path: string) => boolean, ctx: PackContext, notices: string[]): Promise<string> {
  const kept: string[] = [];
  const left: string[] = [];
  for (const file of splitDiff(diff)) {
    if (!file.path) {
      notices.push('git-diff: left out part of the diff whose file name could not be read');
      continue;
    }
    // A rename out of (or into) an excluded name is left out too: its diff shows the content.
    if (excluded(file.path) || (file.from !== undefined && excluded(file.from))) {
      left.push(file.path);
      continue;
    }
    const found = await Promise.all(scanTexts(file).map((text) => ctx.scanSecrets(file.path, text)));
    const rules = [...new Set(found.flat())].sort();
    if (rules.length) notices.push(secretNotice('git-diff', file.path, rules, 'the diff of '));
    else kept.push(file.text);
  }
  if (left.length) notices.push(`git-diff: left out the diff of ${left.length} file${left.length === 1 ? '' : 's'} (excluded, gitignored or on the default ignore list): ${left.join(', ')}`);
  return kept.join('');
}

/**
 * The name lists and the diffs, all at once (none depends on another). What "the change" is: a
 * reviewed commit range, else the staged change; every list and diff takes it, so the same
 * exclusions and secret scan apply to it.
 */
function lists(git: Git, want: GitWanted) {
  const change = want.range ? [want.range.base, want.range.head] : ['--cached'];
  const skip = Promise.resolve(undefined);
  return Promise.all([
    // --no-renames: both names of a renamed file, so either can be judged; a status each, so
    // deleted files (no content to pack) are known without a second list.
    want.staged || want.changedFiles ? git(['diff', ...change, '--name-status', '--no-renames', '-z']) : skip,
    want.unstaged ? git(['diff', '--name-only', '--no-renames', '-z']) : skip,
    want.staged ? git([...DIFF_ARGS, ...change]) : skip,
    want.unstaged ? git([...DIFF_ARGS]) : skip,
  ]);
}

export default definePlugin({
  kind: 'packer',
  name: 'git-diff',
  contextKeys: ['default_ignores'],
  description: 'The staged diff (git diff --cached), optionally the unstaged one, and $CHANGED_FILES in full',
  async pack(request, ctx) {
    const want = request.git ?? STAGED_ONLY;
    const git = packerGit(ctx, request);
    const asked = await lists(git, want);
    // Outside a repository `git diff --cached` is `diff --no-index`, which answers "unknown option
    // `cached'": whether this is one is asked only when a list failed (or none was asked), not
    // beside every pack (a process of its own). A refused guard fails every git, `inside` too.
    const ran = asked.filter((result) => result !== undefined);
    if (!ran.length || ran.some((result) => !result.ok)) {
      const inside = await git(['rev-parse', '--is-inside-work-tree']);
      if (!inside.ok || inside.stdout.trim() !== 'true') {
        // With targets the run still has files to read (a run in place): no diff, said once.
        if (request.targets.length) return { parts: [], notices: [`git-diff: ${request.repoRoot} is not a git repository: no change to pack, only the targets`], secretsScanned: true };
        throw new SupervisorError('NOT_A_REPOSITORY', `${request.repoRoot} is not a git repository: the git-diff packer has no change to pack`, {
          hint: 'Run it inside a git checkout (or give one with --repo), or pack files instead: --target <file> with context.packer: glob.',
          details: { file: request.repoRoot },
        });
      }
    }
    const notices: string[] = [];
    const diffs: string[] = [];
    const stagedTitle = want.range ? `Git Diff (${want.range.base.slice(0, 7)}..${want.range.head.slice(0, 7)})` : 'Git Diff (Staged)';
    const [statuses, unstagedNames, stagedDiff, unstagedDiff] = asked;
    let changed: string[] | undefined;
    let existing: string[] = [];
    if (statuses) {
      if (!statuses.ok && want.changedFiles) notices.push(`git-diff: no changed files: ${statuses.error}`);
      const listed = statuses.ok ? nameStatus(statuses.stdout) : [];
      changed = listed.map((entry) => entry.path);
      existing = listed.filter((entry) => entry.status !== 'D').map((entry) => entry.path);
    }
    const allNames = [...new Set([...(changed ?? []), ...(unstagedNames?.ok ? unstagedNames.stdout.split('\0').filter(Boolean) : [])])];
    const excluded = await createExclusion(request, git, allNames);
    for (const [result, title] of [
      [stagedDiff, stagedTitle],
      [unstagedDiff, 'Git Diff (Unstaged)'],
    ] as const) {
      if (!result) continue;
      if (!result.ok) notices.push(`git-diff: no diff: ${result.error}`);
      else {
        const diff = await filterDiff(result.stdout, excluded, ctx, notices);
        if (diff.trim()) diffs.push(fenced(title, diff.replace(/\n$/, '')));
      }
    }
    const parts = [];
    if (diffs.length) parts.push({ key: 'git_diff', content: diffs.join('\n\n') });

    if (want.changedFiles && changed) {
      const { paths, left } = selectChanged(existing, request, excluded);
      if (left.length) notices.push(`git-diff: left out ${left.length} changed file${left.length === 1 ? '' : 's'} (excluded, gitignored or on the default ignore list): ${left.join(', ')}`);
      if (paths.length) {
        const report = await ctx.readFiles(paths);
        notices.push(...skippedNotices('git-diff', report));
        if (report.files.length) {
          const files = report.files.map((f) => f.path);
          parts.push({ key: 'changed_files', content: renderFiles(report.files, request.style, 'Changed Files', 'changed_files', { lineNumbers: request.lineNumbers === true }), files });
        }
      }
    }
    return { parts, notices, secretsScanned: true };
  },
});
