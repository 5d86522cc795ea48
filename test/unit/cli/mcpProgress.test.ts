import { strict as assert } from 'node:assert';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { CallProgress } from '../../../src/cli/mcp/progress';
import type { AgentResult } from '../../../src/core/domain/result';
import type { ReviewEstimate } from '../../../src/core/domain/estimate';
import type { ReviewEvent } from '../../../src/core/domain/events';

/** The progress of one MCP call, on a fake clock: what is sent, when, and that the value only goes up. */

function estimate(agents: string[]): ReviewEstimate {
  const perAgent = Object.fromEntries(agents.map((id) => [id, { model: 'm', promptTokens: 100, maxCompletionTokens: 1000, costUsd: 0.01, likelyCompletionTokens: 100, likelyUsd: 0.005, contextWindow: 100_000 }]));
  return { perAgent, order: agents, costUsd: 0.01 * agents.length, likelyUsd: 0.005 * agents.length };
}

const result = (agent: string) => ({ agent, findings: [] }) as unknown as AgentResult;
const delta = (agent: string, n: number): ReviewEvent => ({ type: 'delta', reviewId: 'r', agent, text: 'x'.repeat(n) });
const done = (agent: string): ReviewEvent => ({ type: 'done', reviewId: 'r', agent, result: result(agent) });

describe('MCP call progress', () => {
  function make(token: string | undefined) {
    let now = 0;
    const sent: { progress: number; total?: number; message?: string }[] = [];
    const p = new CallProgress(token, (n: ServerNotification) => {
      sent.push(n.params as { progress: number });
      return Promise.resolve();
    }, () => undefined, { everyMs: 1000, now: () => now });
    return { p, sent, tick: (ms: number) => (now += ms) };
  }

  it('0 of N when planned, streaming shares at most every second, a step per agent, never going back', () => {
    const { p, sent, tick } = make('t');
    p.planned(estimate(['a', 'b']));
    assert.deepEqual(sent.map((s) => [s.progress, s.total]), [[0, 2]]);
    p.onEvent(delta('a', 100));
    assert.equal(sent.length, 1, 'throttled');
    tick(1000);
    p.onEvent(delta('a', 100)); // 200 of 400 likely chars
    assert.equal(sent.at(-1)?.progress, 0.5);
    tick(1000);
    p.onEvent(delta('a', 10_000)); // past its likely length: capped below a whole step
    assert.equal(sent.at(-1)?.progress, 0.9);
    p.onEvent(done('a'));
    assert.equal(sent.at(-1)?.progress, 1);
    p.onEvent(done('b'));
    assert.equal(sent.at(-1)?.progress, 2);
    for (let i = 1; i < sent.length; i++) assert.ok((sent[i]?.progress ?? 0) > (sent[i - 1]?.progress ?? 0));
    assert.ok(sent.every((s) => !/x{3}/.test(s.message ?? '')), 'no model text in messages');
  });

  it('sends nothing without a progress token', () => {
    const { p, sent, tick } = make(undefined);
    p.planned(estimate(['a']));
    tick(5000);
    p.onEvent(delta('a', 100));
    p.onEvent(done('a'));
    assert.equal(sent.length, 0);
  });
});
