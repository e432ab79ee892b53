import { describe, expect, it } from 'vitest';
import { escapeHtml, html, SafeHtml } from './html.js';

describe('escapeHtml', () => {
  it('escapes the five characters that end text or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('leaves other text alone, including already escaped-looking text (escaped again)', () => {
    expect(escapeHtml('Ünïcode ✓ plain text')).toBe('Ünïcode ✓ plain text');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});

describe('html`...`', () => {
  it('escapes every interpolated string and number by default', () => {
    const name = '<script>alert(1)</script>';
    const page = html`<p title="${'" onmouseover="x'}">${name} ${42}</p>`;
    expect(page).toBeInstanceOf(SafeHtml);
    expect(page.value).toBe(
      '<p title="&quot; onmouseover=&quot;x">&lt;script&gt;alert(1)&lt;/script&gt; 42</p>',
    );
  });

  it('keeps nested html`...` as markup, escaped once', () => {
    const inner = html`<b>${'a & b'}</b>`;
    expect(html`<p>${inner}</p>`.value).toBe('<p><b>a &amp; b</b></p>');
  });

  // Prettier would reformat these html`...` literals; their exact text is the point here.
  it('joins lists and drops false, null and undefined', () => {
    const items = ['<1>', '2'].map((item) => html`<li>${item}</li>`);
    // prettier-ignore
    const list = html`<ul>${items}</ul>${false}${null}${undefined}`;
    expect(list.value).toBe('<ul><li>&lt;1&gt;</li><li>2</li></ul>');
  });

  it('escapes strings inside lists too', () => {
    // prettier-ignore
    const mixed = html`${['<i>', html`<i>`]}`;
    expect(mixed.value).toBe('&lt;i&gt;<i>');
  });

  it('renders a string that looks like SafeHtml output as text', () => {
    const looksSafe = String(html`<b>x</b>`);
    expect(html`${looksSafe}`.value).toBe('&lt;b&gt;x&lt;/b&gt;');
  });
});
