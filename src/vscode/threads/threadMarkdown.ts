import * as vscode from 'vscode';
import type { Finding } from '../../core/domain/finding';
import { revealBidi } from '../../shared/bidi';
import { SEVERITY_LABEL } from '../../shared/labels';
import { escapeMarkdown, fence, proseMarkdown } from '../../shared/untrustedText';
import { localPanelStrings } from '../panel/panelStrings';

/**
 * The Markdown of review threads. Everything in a finding is model text and so untrusted: a MarkdownString that
 * runs no command and renders no HTML, with the finding's words escaped, the code in fences it cannot close, and
 * a follow-up answer kept as Markdown but unable to link (`proseMarkdown`).
 */
export function untrustedMarkdown(value: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(value, false);
  md.supportHtml = false;
  md.isTrusted = false;
  return md;
}

/** `Critical`, in the display language. */
export function severityLabel(severity: Finding['severity']): string {
  return localPanelStrings()[SEVERITY_LABEL[severity]];
}

/** The replacement as a diff of the lines as reviewed (`-`) against the proposed code (`+`). */
export function suggestionDiff(original: string, replacement: string): string {
  const lines = (text: string) => text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  return fence([...lines(original).map((l) => `-${l}`), ...lines(replacement).map((l) => `+${l}`)].map(revealBidi).join('\n'), 'diff');
}

/** The first comment of a finding's thread: severity, agents and rule, title, explanation, advice, the suggested change. */
export function findingMarkdown(f: Finding, original: string, replacement: string | undefined): vscode.MarkdownString {
  const head = [severityLabel(f.severity).toLocaleUpperCase(), f.agents.join(' + '), ...(f.cwe ? [f.cwe] : [])].map((p) => escapeMarkdown(p)).join(' · ');
  const parts = [`**${head}**`, '', `**${escapeMarkdown(f.title)}**`, '', escapeMarkdown(f.explanation, { multiline: true })];
  if (f.advice) parts.push('', escapeMarkdown(f.advice, { multiline: true }));
  if (replacement !== undefined) parts.push('', escapeMarkdown(vscode.l10n.t('Suggested change:')), '', suggestionDiff(original, replacement));
  return untrustedMarkdown(parts.join('\n'));
}

/**
 * A follow-up answer as it streams, as Markdown that can neither link nor run anything; `note` (Markdown already
 * escaped: why the answer stopped) goes below it.
 */
export function answerMarkdown(text: string, note = ''): vscode.MarkdownString {
  return untrustedMarkdown([proseMarkdown(text), note].filter((p) => p !== '').join('\n\n'));
}
