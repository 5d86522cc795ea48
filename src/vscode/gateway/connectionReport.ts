import * as vscode from 'vscode';
import type { DoctorReport, ProbeResult } from '../../core/doctor/doctor';
import { formatCount, formatMs } from '../../shared/format';

/**
 * What Test Connection found, in plain words on one screen (the detail of one dialog): the models listed, each
 * agent model's answer (usage and where, JSON mode, the request shape sent), and each agent's price and context
 * window. Texts from the gateway are shown as they are; the prompter escapes everything it shows.
 */

function usageWords(p: ProbeResult): string {
  if (p.usage !== 'reported' || !p.usageVia) return vscode.l10n.t('not reported (Quorum counts the tokens)');
  return p.usageVia.everyChunk ? vscode.l10n.t('reported in {0} on every chunk', p.usageVia.field) : vscode.l10n.t('reported in {0} on the last chunk', p.usageVia.field);
}

function jsonWords(json: ProbeResult['json']): string {
  switch (json) {
    case 'honoured':
      return vscode.l10n.t('honoured');
    case 'ignored':
      return vscode.l10n.t('ignored (the answer was prose)');
    case 'refused':
      return vscode.l10n.t('refused (asked for in the prompt only)');
    default:
      return vscode.l10n.t('not judged (empty answer)');
  }
}

function shapeWords(p: ProbeResult): string {
  const left = [
    ...(p.shape.tokens === 'none' ? ['max_tokens'] : []),
    ...(p.shape.temperature ? [] : ['temperature']),
    ...(p.shape.streamOptions ? [] : ['stream_options']),
    ...(p.shape.responseFormat ? [] : ['response_format']),
  ];
  const tokens = p.shape.tokens === 'none' ? '' : p.shape.tokens;
  const shape = left.length > 0 ? vscode.l10n.t('{0}, without {1}', tokens || '-', left.join(', ')) : tokens;
  return p.refused.length > 0 ? vscode.l10n.t('{0} (learned: the gateway refused {1})', shape, p.refused.join(', ')) : shape;
}

function probeLine(p: ProbeResult): string {
  if (!p.ok) return vscode.l10n.t('{0}: failed ({1}). {2}', p.model, p.error?.code ?? '?', p.error?.detail ?? p.error?.message ?? '');
  const by = p.answeredBy && p.answeredBy !== p.model ? vscode.l10n.t(' (answered by {0})', p.answeredBy) : '';
  return vscode.l10n.t('{0}: answered in {1}{2}. Usage: {3}. JSON mode: {4}. Sent as: {5}.', p.model, formatMs(p.latencyMs), by, usageWords(p), jsonWords(p.json), shapeWords(p));
}

/** The dialog's detail: one line a fact. */
export function connectionDetail(r: DoctorReport): string {
  const lines: string[] = [];
  lines.push(r.models.ok ? vscode.l10n.t('Models: {0} listed.', formatCount(r.models.ids.length)) : vscode.l10n.t('Models: /models failed ({0}).', r.models.error.code));
  for (const p of r.probes) lines.push(probeLine(p));
  for (const a of r.agents) {
    const price = a.priceSource ? vscode.l10n.t('${0} in / ${1} out per million tokens', a.inputPerMTok ?? 0, a.outputPerMTok ?? 0) : vscode.l10n.t('price unknown');
    lines.push(vscode.l10n.t('{0}: {1}, {2}, context window {3} tokens.', a.agent, a.model, price, formatCount(a.contextWindow)));
  }
  return lines.join('\n');
}
