import * as z from 'zod';
import type { GithubClient } from './client';
import type { GithubTarget } from './target';

/** The parts of GitHub's REST API the poster uses; every answer it reads is parsed with zod. */

const userSchema = z.looseObject({ login: z.string(), type: z.string().optional() }).nullish();

const pullSchema = z.looseObject({
  number: z.number().int(),
  head: z.looseObject({ sha: z.string().regex(/^[0-9a-f]{7,64}$/, 'a commit id') }),
  base: z.looseObject({ ref: z.string() }),
});
type Pull = z.infer<typeof pullSchema>;

const pullFileSchema = z.looseObject({ filename: z.string(), status: z.string(), patch: z.string().optional() });
export type PullFile = z.infer<typeof pullFileSchema>;

const reviewCommentSchema = z.looseObject({
  id: z.number().int(),
  body: z.string(),
  path: z.string(),
  user: userSchema,
  in_reply_to_id: z.number().int().optional(),
});
export type ReviewComment = z.infer<typeof reviewCommentSchema>;

const reviewSchema = z.looseObject({ id: z.number().int(), body: z.string().nullable(), user: userSchema });
export type Review = z.infer<typeof reviewSchema>;

const issueCommentSchema = z.looseObject({ id: z.number().int(), body: z.string().nullable().optional(), user: userSchema });
export type IssueComment = z.infer<typeof issueCommentSchema>;

const createdSchema = z.looseObject({ id: z.number().int() });

/** One inline comment of a review: `line` (and `start_line` for a range) on the RIGHT side. */
export interface DraftComment {
  path: string;
  line: number;
  side: 'RIGHT';
  start_line?: number;
  start_side?: 'RIGHT';
  body: string;
}

export class GithubApi {
  constructor(
    private readonly octokit: GithubClient,
    private readonly target: GithubTarget,
  ) {}

  private get where() {
    return { owner: this.target.owner, repo: this.target.repo };
  }

  async pull(): Promise<Pull> {
    const r = await this.octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...this.where, pull_number: this.target.pr });
    return pullSchema.parse(r.data);
  }

  async files(): Promise<PullFile[]> {
    const all = await this.octokit.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', { ...this.where, pull_number: this.target.pr, per_page: 100 });
    return z.array(pullFileSchema).parse(all);
  }

  async reviewComments(): Promise<ReviewComment[]> {
    const all = await this.octokit.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', { ...this.where, pull_number: this.target.pr, per_page: 100 });
    return z.array(reviewCommentSchema).parse(all);
  }

  async reviews(): Promise<Review[]> {
    const all = await this.octokit.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...this.where, pull_number: this.target.pr, per_page: 100 });
    return z.array(reviewSchema).parse(all);
  }

  async issueComments(): Promise<IssueComment[]> {
    const all = await this.octokit.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...this.where, issue_number: this.target.pr, per_page: 100 });
    return z.array(issueCommentSchema).parse(all);
  }

  async createReview(commitId: string, body: string, comments: readonly DraftComment[]): Promise<number> {
    const r = await this.octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...this.where, pull_number: this.target.pr, commit_id: commitId, event: 'COMMENT', body, comments: [...comments] });
    return createdSchema.parse(r.data).id;
  }

  async reply(commentId: number, body: string): Promise<number> {
    const r = await this.octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies', { ...this.where, pull_number: this.target.pr, comment_id: commentId, body });
    return createdSchema.parse(r.data).id;
  }

  async createIssueComment(body: string): Promise<number> {
    const r = await this.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...this.where, issue_number: this.target.pr, body });
    return createdSchema.parse(r.data).id;
  }

  async updateIssueComment(id: number, body: string): Promise<void> {
    const r = await this.octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...this.where, comment_id: id, body });
    createdSchema.parse(r.data);
  }
}
