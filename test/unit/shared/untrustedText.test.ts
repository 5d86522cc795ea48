import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { marked } from 'marked';
import { escapeIcons, escapeLinkedText, escapeMarkdown } from '../../../src/shared/untrustedText';

/** VS Code's notification/input-box link pattern (`vs/base/common/linkedText.ts`, VS Code 1.139). */
const LINKED_TEXT_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/** Payloads an attacker puts in a model id, an error message, a file name or model output. */
export const HOSTILE = [
  '[x](command:quorum.resetCost)',
  '[open](command:workbench.action.quickOpen?["%3E"])',
  '[site](https://evil.example/?q=1 "title")',
  '![img](https://evil.example/pixel.png)',
  '<https://evil.example/auto>',
  'https://evil.example/bare and www.evil.example and mail@evil.example',
  '<img src=x onerror=alert(1)>',
  '<a href="command:quorum.resetCost">html</a>',
  '`code` **bold** _em_ ~~del~~',
  '[ref][r]\n\n[r]: command:quorum.resetCost',
  '# heading\n- list\n1. item\n> quote',
  '| a | b |',
  '$(zap) icon',
  '&#91;x&#93;(command:quorum.resetCost) &lt;b&gt;',
  'back\\slash \\[x](command:quorum.resetCost)',
  '[nested [brackets]](file:///etc/passwd)',
];

const vscodeLikeMarked = (md: string) => marked.parse(md, { async: false, gfm: true, breaks: false });
const linkify = new MarkdownIt({ html: true, linkify: true });

describe('untrusted text escaping (one helper for every Markdown surface)', () => {
  it('escapeMarkdown: rendered by GFM renderers, payloads are plain text — no link, image, autolink, HTML, code or emphasis', () => {
    for (const payload of HOSTILE) {
      for (const multiline of [false, true]) {
        const escaped = escapeMarkdown(payload, { multiline });
        for (const html of [vscodeLikeMarked(escaped), linkify.render(escaped)]) {
          const tags = [...html.matchAll(/<\/?([a-z0-9]+)/gi)].map((m) => (m[1] as string).toLowerCase());
          assert.deepEqual(tags.filter((t) => !['p', 'br'].includes(t)), [], `${JSON.stringify(payload)} rendered as ${html}`);
        }
      }
    }
  });

  it('escapeMarkdown: the reader sees the same characters', () => {
    for (const payload of ['[x](command:quorum.resetCost)', 'gpt-4.1 | $0.01', 'a_b*c`d`']) {
      const html = vscodeLikeMarked(escapeMarkdown(payload));
      const text = html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').trim();
      assert.equal(text, payload);
    }
  });

  it('escapeMarkdown: one line by default (table cells), hard breaks when multiline', () => {
    assert.ok(!escapeMarkdown('a\nb\r\nc').includes('\n'));
    assert.equal(escapeMarkdown('a\nb', { multiline: true }), 'a  \nb');
  });

  it('escapeLinkedText: no notification link survives, the text stays readable, escaping twice changes nothing', () => {
    for (const payload of HOSTILE) {
      const once = escapeLinkedText(payload);
      assert.equal(once.match(LINKED_TEXT_LINK), null, once);
      assert.equal(escapeLinkedText(once), once);
      assert.equal(once.replace(/\] \(/g, ']('), payload.replace(/\] \(/g, ']('));
    }
    assert.equal(escapeLinkedText('Closest: [x](command:quorum.resetCost).'), 'Closest: [x] (command:quorum.resetCost).');
  });

  it('the old code path (no escaping) would have rendered links: the check is meaningful', () => {
    assert.ok(HOSTILE[0]?.match(LINKED_TEXT_LINK));
    assert.ok(vscodeLikeMarked(HOSTILE[0] as string).includes('<a'));
  });

  it('escapeIcons: $(name) is shown as text, already escaped ones are left alone', () => {
    assert.equal(escapeIcons('$(zap) x $(gear)'), '\\$(zap) x \\$(gear)');
    assert.equal(escapeIcons('\\$(zap)'), '\\$(zap)');
    assert.equal(escapeIcons(escapeIcons('$(zap)')), '\\$(zap)');
    assert.equal(escapeIcons('gpt-4.1 $5'), 'gpt-4.1 $5');
  });
});
