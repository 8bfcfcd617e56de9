// Commit messages read as `git log --oneline` shows them: a subject short enough for one line, the
// why in the body. Subjects of 150 characters and more with no body were the habit until db3e79d;
// every commit after it is held to the rule. A checkout without that history (a tarball, a shallow
// clone) has nothing to hold and says so.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
/** The last commit written before the rule; everything after it keeps it. */
const RULE_SINCE = 'db3e79d';
/** git's own advice, and what fits `--oneline` beside a hash in 80 columns. */
export const MAX_SUBJECT = 72;

interface Commit { hash: string; subject: string; body: string; parents: number }

function git(args: string[]): string {
  return execFileSync('git', ['-c', 'log.showSignature=false', ...args], { cwd: ROOT, encoding: 'utf8' });
}

function commitsSince(base: string): Commit[] | undefined {
  try {
    git(['cat-file', '-e', `${base}^{commit}`]);
  } catch {
    return undefined;
  }
  // NUL between fields and records: no message can hold one.
  const out = git(['log', '-z', '--format=%H%x00%P%x00%s%x00%b', `${base}..HEAD`]);
  const fields = out.split('\0');
  const commits: Commit[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    commits.push({
      hash: fields[i].replace(/^\n/, ''),
      parents: fields[i + 1].split(' ').filter(Boolean).length,
      subject: fields[i + 2],
      body: fields[i + 3].trim(),
    });
  }
  return commits;
}

/** What is wrong with one commit's message, or nothing. */
export function messageProblems(c: Pick<Commit, 'subject' | 'body' | 'parents'>): string[] {
  const problems: string[] = [];
  if (c.subject.length > MAX_SUBJECT) problems.push(`subject of ${c.subject.length} characters (at most ${MAX_SUBJECT})`);
  if (c.subject.trim() === '') problems.push('no subject');
  // A merge says what it merges; any other commit says why, unless its subject already can.
  if (c.parents < 2 && c.body === '' && c.subject.length > 50) problems.push('a long subject with no body: the why goes in the body');
  return problems;
}

describe('commit messages', () => {
  it('are told apart: a long subject, or a long one with no body, is refused', () => {
    assert.deepEqual(messageProblems({ subject: 'cli: derive the option lists', body: '', parents: 1 }), []);
    assert.equal(messageProblems({ subject: 'x'.repeat(73), body: 'why', parents: 1 }).length, 1);
    assert.equal(messageProblems({ subject: 'y'.repeat(60), body: '', parents: 1 }).length, 1);
    assert.deepEqual(messageProblems({ subject: "Merge branch 'issue43-cli-and-friends-long-name'", body: '', parents: 2 }), []);
  });

  it(`after ${RULE_SINCE} have a short subject and the why in the body`, function () {
    const commits = commitsSince(RULE_SINCE);
    if (commits === undefined) {
      console.log(`    (no ${RULE_SINCE} in this checkout's history: nothing to hold)`);
      this.skip();
    }
    const wrong = commits
      .map((c) => ({ c, problems: messageProblems(c) }))
      .filter(({ problems }) => problems.length > 0)
      .map(({ c, problems }) => `${c.hash.slice(0, 10)} ${c.subject.slice(0, 60)}…: ${problems.join('; ')}`);
    assert.deepEqual(wrong, []);
  });
});
