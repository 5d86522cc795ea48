import * as z from 'zod';
import { GitlabError, type GitlabClient } from './client';

/**
 * The endpoints `--post gitlab` uses, each answer parsed with zod:
 * - GET /user (https://docs.gitlab.com/api/users/#retrieve-the-current-user): the token's own user, whose notes
 *   are Quorum's.
 * - GET /projects/:id/merge_requests/:iid (https://docs.gitlab.com/api/merge_requests/#get-single-mr): its
 *   `diff_refs` (base_sha, start_sha, head_sha), which every diff position names.
 * - GET …/diffs (GitLab 15.7+, https://docs.gitlab.com/api/merge_requests/#list-merge-request-diffs), else the
 *   older GET …/changes.
 * - GET/POST …/discussions, POST …/discussions/:id/notes, PUT …/discussions/:id?resolved=true
 *   (https://docs.gitlab.com/api/discussions/#merge-requests).
 * - POST/PUT …/notes (https://docs.gitlab.com/api/notes/#merge-requests): the summary.
 */

const sha = z.string().regex(/^[0-9a-f]{7,64}$/, 'a commit id');
const userSchema = z.looseObject({ id: z.number().int(), username: z.string() });
export type GitlabUser = z.infer<typeof userSchema>;

const diffRefsSchema = z.looseObject({ base_sha: sha, start_sha: sha, head_sha: sha });
export type DiffRefs = z.infer<typeof diffRefsSchema>;
const mergeRequestSchema = z.looseObject({ iid: z.number().int(), sha: sha.nullish(), diff_refs: diffRefsSchema.nullish() });

const diffSchema = z.looseObject({
  old_path: z.string(),
  new_path: z.string(),
  diff: z.string().nullish(),
  new_file: z.boolean().optional(),
  deleted_file: z.boolean().optional(),
  renamed_file: z.boolean().optional(),
});
export type MrDiff = z.infer<typeof diffSchema>;

const noteSchema = z.looseObject({
  id: z.number().int(),
  body: z.string(),
  author: userSchema,
  system: z.boolean().optional(),
  resolvable: z.boolean().optional(),
  resolved: z.boolean().nullish(),
});
const discussionSchema = z.looseObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a discussion id'), individual_note: z.boolean().optional(), notes: z.array(noteSchema) });
export type Discussion = z.infer<typeof discussionSchema>;
const createdSchema = z.looseObject({ id: z.union([z.number().int(), z.string()]) });

/** `position` of a new diff thread (https://docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff). */
export interface LineAnchor {
  line_code: string;
  type: 'new' | 'old';
  old_line?: number;
  new_line?: number;
}
export interface TextPosition extends DiffRefs {
  position_type: 'text';
  old_path: string;
  new_path: string;
  new_line: number;
  old_line?: number;
  line_range?: { start: LineAnchor; end: LineAnchor };
}

export class GitlabApi {
  constructor(private readonly client: GitlabClient) {}

  private get mr(): string {
    return this.client.mrPath;
  }

  user(): Promise<GitlabUser> {
    return this.client.request('GET', '/user', userSchema);
  }

  mergeRequest(): Promise<z.infer<typeof mergeRequestSchema>> {
    return this.client.request('GET', this.mr, mergeRequestSchema);
  }

  async diffs(): Promise<MrDiff[]> {
    try {
      return await this.client.all(`${this.mr}/diffs`, diffSchema);
    } catch (e) {
      if (!(e instanceof GitlabError) || e.status !== 404) throw e;
      return (await this.client.request('GET', `${this.mr}/changes`, z.looseObject({ changes: z.array(diffSchema) }))).changes;
    }
  }

  discussions(): Promise<Discussion[]> {
    return this.client.all(`${this.mr}/discussions`, discussionSchema);
  }

  async createDiscussion(body: string, position: TextPosition): Promise<void> {
    await this.client.request('POST', `${this.mr}/discussions`, createdSchema, { body: { body, position } });
  }

  async reply(discussion: string, body: string): Promise<void> {
    await this.client.request('POST', `${this.mr}/discussions/${encodeURIComponent(discussion)}/notes`, createdSchema, { body: { body } });
  }

  async resolveDiscussion(discussion: string): Promise<void> {
    await this.client.request('PUT', `${this.mr}/discussions/${encodeURIComponent(discussion)}`, createdSchema, { query: { resolved: 'true' } });
  }

  async createNote(body: string): Promise<void> {
    await this.client.request('POST', `${this.mr}/notes`, createdSchema, { body: { body } });
  }

  async updateNote(id: string, body: string): Promise<void> {
    await this.client.request('PUT', `${this.mr}/notes/${encodeURIComponent(id)}`, createdSchema, { body: { body } });
  }
}
