import { githubTarget, type GithubTarget } from './github/target';
import { gitlabTarget, type GitlabTarget } from './gitlab/target';

/** Where `--post` posts, read from the environment before the review runs (a missing token costs nothing). */
export type PostTarget = { host: 'github'; github: GithubTarget } | { host: 'gitlab'; gitlab: GitlabTarget };

export function postTarget(host: 'github' | 'gitlab', env: Readonly<Record<string, string | undefined>>, number: number | undefined): PostTarget | { problem: string } {
  if (host === 'github') {
    const github = githubTarget(env, number);
    return 'problem' in github ? github : { host, github };
  }
  const gitlab = gitlabTarget(env, number);
  return 'problem' in gitlab ? gitlab : { host, gitlab };
}

/** The tokens `--post` may read: kept out of every line the CLI prints. */
export function postTokens(env: Readonly<Record<string, string | undefined>>): string[] {
  return [env.GITHUB_TOKEN, env.GITLAB_TOKEN, env.CI_JOB_TOKEN].map((t) => t?.trim() ?? '').filter((t) => t !== '');
}
