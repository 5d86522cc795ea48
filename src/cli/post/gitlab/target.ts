import * as z from 'zod';

/**
 * Where `--post gitlab` posts, from GitLab's predefined CI/CD variables
 * (https://docs.gitlab.com/ci/variables/predefined_variables/): the API (`CI_API_V4_URL`, else `CI_SERVER_URL` +
 * `/api/v4`), the project (`CI_MERGE_REQUEST_PROJECT_ID`, else `CI_PROJECT_ID`), the merge request (`--mr IID`,
 * else `CI_MERGE_REQUEST_IID`) and the token (`GITLAB_TOKEN`: a project or personal access token with the `api`
 * scope). `CI_JOB_TOKEN` is not one: a job token reaches only the endpoints listed in
 * https://docs.gitlab.com/ci/jobs/ci_job_token/ and notes and discussions are not among them. Read before the
 * review runs, so that a missing token or merge request costs nothing.
 */

export interface GitlabTarget {
  token: string;
  /** `https://gitlab.example.com/api/v4`, no trailing slash. */
  apiUrl: string;
  /** A numeric id or a `group/project` path. */
  project: string;
  mr: number;
}

const urlSchema = z.string().trim().pipe(z.url()).refine((u) => /^https?:\/\//i.test(u));
const projectSchema = z.string().trim().regex(/^(\d+|[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)+)$/);
const iidSchema = z.string().trim().regex(/^[1-9]\d{0,9}$/).transform(Number);

const JOB_TOKEN_CANNOT = 'CI_JOB_TOKEN cannot post merge request notes or threads (a job token reaches only a few API endpoints): add a project access token with the api scope as the masked CI/CD variable GITLAB_TOKEN';

function apiUrlOf(env: Readonly<Record<string, string | undefined>>): string | { problem: string } {
  const v4 = env.CI_API_V4_URL?.trim();
  if (v4) return urlSchema.safeParse(v4).success ? v4.replace(/\/+$/, '') : { problem: 'CI_API_V4_URL is not an http(s) URL' };
  const server = env.CI_SERVER_URL?.trim();
  if (server) return urlSchema.safeParse(server).success ? `${server.replace(/\/+$/, '')}/api/v4` : { problem: 'CI_SERVER_URL is not an http(s) URL' };
  return { problem: 'CI_API_V4_URL is not set (nor CI_SERVER_URL): --post gitlab needs the GitLab API, e.g. CI_API_V4_URL=https://gitlab.example.com/api/v4' };
}

/** The target, or a one-line reason it cannot be posted (exit 2). The token is never part of a reason. */
export function gitlabTarget(env: Readonly<Record<string, string | undefined>>, mr: number | undefined): GitlabTarget | { problem: string } {
  const token = env.GITLAB_TOKEN?.trim() ?? '';
  const job = env.CI_JOB_TOKEN?.trim() ?? '';
  if (!token) return { problem: job ? `GITLAB_TOKEN is not set, and ${JOB_TOKEN_CANNOT}` : 'GITLAB_TOKEN is not set: --post gitlab needs a project or personal access token with the api scope' };
  if (token === job) return { problem: `GITLAB_TOKEN is the job token: ${JOB_TOKEN_CANNOT}` };
  const apiUrl = apiUrlOf(env);
  if (typeof apiUrl !== 'string') return apiUrl;
  const rawProject = env.CI_MERGE_REQUEST_PROJECT_ID?.trim() || env.CI_PROJECT_ID?.trim() || '';
  if (!rawProject) return { problem: 'CI_PROJECT_ID is not set: --post gitlab needs the project (its numeric id or group/project path)' };
  const project = projectSchema.safeParse(rawProject);
  if (!project.success) return { problem: 'CI_PROJECT_ID is neither a numeric id nor a group/project path' };
  if (mr !== undefined) return { token, apiUrl, project: project.data, mr };
  const raw = env.CI_MERGE_REQUEST_IID?.trim() ?? '';
  if (!raw) return { problem: 'no merge request: pass --mr IID or run in a merge request pipeline (CI_MERGE_REQUEST_IID is not set)' };
  const iid = iidSchema.safeParse(raw);
  if (!iid.success) return { problem: 'CI_MERGE_REQUEST_IID is not a merge request number; pass --mr IID' };
  return { token, apiUrl, project: project.data, mr: iid.data };
}
