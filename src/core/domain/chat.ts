/** What is sent to a model: its messages, and who a request is for. */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Who a request is for, so that the cost ledger can total by agent and review. */
export interface RequestTag {
  agent?: string;
  reviewId?: string;
}
