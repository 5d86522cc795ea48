import * as z from 'zod';

/**
 * Messages between the extension host and the review webview. Both sides validate what arrives with these
 * schemas and drop what does not parse.
 */

export const webviewToHostSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('ready') })]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

export const hostToWebviewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), seq: z.number().int().nonnegative() }),
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;
