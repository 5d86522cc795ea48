/**
 * Every command id Quorum registers. Those listed in `CONTRIBUTED_COMMANDS` appear in package.json's
 * `contributes.commands` (a test checks both directions); the rest are internal (panel and quick-fix
 * actions) and never appear in the palette.
 */
export const Commands = {
  reviewSelection: 'quorum.reviewSelection',
  cancelReview: 'quorum.cancelReview',
  switchModel: 'quorum.switchModel',
  setApiKey: 'quorum.setApiKey',
  clearApiKey: 'quorum.clearApiKey',
  testConnection: 'quorum.testConnection',
  showCost: 'quorum.showCost',
  resetCost: 'quorum.resetCost',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];
