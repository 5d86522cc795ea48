/**
 * The ids under which activation registers what package.json contributes besides commands (those are in
 * `commands.ts`): the webview panels VS Code restores, the chat participant, the agent-mode tool and the MCP server
 * definition provider. Apart from the modules that implement them, so that the start-up bundle can register them
 * without loading those modules (issue 20; `src/vscode/extension.ts`).
 */

/** The review panel's webview type (`onWebviewPanel:quorum.review`). */
export const PANEL_VIEW_TYPE = 'quorum.review';
/** The Compare Models page's webview type (`onWebviewPanel:quorum.compare`). */
export const COMPARE_VIEW_TYPE = 'quorum.compare';
/** `chatParticipants` in package.json. */
export const CHAT_PARTICIPANT_ID = 'quorum.chat';
/** `languageModelTools` in package.json. */
export const REVIEW_TOOL_NAME = 'quorum_review';
/** `mcpServerDefinitionProviders` in package.json. */
export const MCP_PROVIDER_ID = 'quorum.mcp';
