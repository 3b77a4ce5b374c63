/**
 * The baseline tree of the pipeline benchmark: a git ref (`BENCH_BASELINE`, default `7fcdd3c`, main
 * before the cutting-geometry check; `none` skips it) checked out as a detached worktree in a temp
 * folder, with this tree's node_modules linked in. It is removed when the benchmark ends, however
 * it ends (bench/on-exit.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onExit } from './on-exit.ts';

export const DEFAULT_BASELINE = '7fcdd3c';

export interface Baseline {
  /** The ref as given, and the commit it names. */
  ref: string;
  commit: string;
  /** The worktree's folder. */
  root: string;
  /** Removes the worktree (also done at exit); safe to call more than once. */
  remove(): void;
}

/** The baseline worktree, or why there is none (the benchmark then measures the working tree alone). */
export function materialiseBaseline(repoRoot: string): { baseline: Baseline } | { skipped: string } {
  const ref = process.env.BENCH_BASELINE ?? DEFAULT_BASELINE;
  if (ref === 'none') return { skipped: 'BENCH_BASELINE=none' };
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repoRoot, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

  let commit: string;
  try {
    commit = git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
  } catch (error) {
    return { skipped: `cannot resolve ${ref}: ${whyNot(error, git, `${ref} is not a commit in this clone`)}` };
  }
  const root = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  try {
    git('worktree', 'add', '--detach', root, commit);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    return { skipped: `git worktree add failed: ${whyNot(error, git, 'no reason given')}` };
  }

  const nodeModules = join(root, 'node_modules');
  const remove = onExit(() => {
    // The link goes first, so nothing below can reach the working tree's node_modules through it.
    try {
      unlinkSync(nodeModules);
    } catch {
      // not linked yet
    }
    try {
      git('worktree', 'remove', '--force', root);
    } catch {
      rmSync(root, { recursive: true, force: true });
      try {
        git('worktree', 'prune');
      } catch {
        // the folder is gone; git forgets the worktree at its next prune
      }
    }
  });

  try {
    symlinkSync(join(repoRoot, 'node_modules'), nodeModules, 'dir');
  } catch (error) {
    remove();
    return { skipped: `cannot link node_modules into the baseline: ${String(error)}` };
  }
  return { baseline: { ref, commit, root, remove } };
}

/** git's own complaint, or that git is missing; notes a shallow clone, the usual reason a commit is absent. */
function whyNot(error: unknown, git: (...args: string[]) => string, otherwise: string): string {
  const e = error as { code?: string; stderr?: string };
  if (e.code === 'ENOENT') return 'git is not installed';
  const said = e.stderr?.trim() || otherwise;
  try {
    if (git('rev-parse', '--is-shallow-repository') === 'true') return `${said} (this is a shallow clone)`;
  } catch {
    // not a repository at all: git said so above
  }
  return said;
}
