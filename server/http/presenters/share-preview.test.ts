// Link-preview rendering: escaping, the opening lines cut at a word, which images crawlers can use,
// and replacement text that must stay literal.
import { describe, expect, it } from 'vitest';
import type { SharedStory } from '@shared/schemas/sharing';
import { escapeHtml, firstImageUrl, openingLines, renderSharedPage } from './share-preview';

const story = (messages: SharedStory['messages'], title = 'A Tale'): SharedStory => ({
  shareId: 'abcdEFGH1234_-xy',
  title,
  messages,
});
const INDEX =
  '<html><head><meta name="description" content="App" /><title>Taleweaver</title></head><body></body></html>';

describe('share preview', () => {
  it('escapes every character that could end an attribute or open a tag', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it("uses the narrator's opening, whitespace folded, cut at a word with an ellipsis", () => {
    expect(
      openingLines(
        story([
          { role: 'user', content: 'premise' },
          { role: 'assistant', content: 'Short\n\nopening.' },
        ]),
      ),
    ).toBe('Short opening.');
    const long = `${'word '.repeat(60)}end`;
    const cut = openingLines(story([{ role: 'assistant', content: long }]));
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut).toMatch(/word…$/);
    expect(openingLines(story([{ role: 'user', content: 'Only a premise' }]))).toBe('Only a premise');
    expect(openingLines(story([]))).toBe('');
  });

  it('offers crawlers only images they can fetch, as absolute URLs', () => {
    const base = 'https://tales.example';
    expect(firstImageUrl(story([{ role: 'assistant', content: 'a', image: '/images/1.png' }]), base)).toBe(
      'https://tales.example/images/1.png',
    );
    expect(firstImageUrl(story([{ role: 'assistant', content: 'a', image: 'https://cdn.example/1.png' }]), base)).toBe(
      'https://cdn.example/1.png',
    );
    expect(
      firstImageUrl(story([{ role: 'assistant', content: 'a', image: 'data:image/png;base64,AAAA' }]), base),
    ).toBeNull();
    expect(firstImageUrl(story([{ role: 'assistant', content: 'a', image: '//evil.example/x.png' }]), base)).toBeNull();
    expect(firstImageUrl(story([{ role: 'assistant', content: 'a' }]), base)).toBeNull();
  });

  it('fills the page with a large-image card when there is an image, keeping $ patterns literal', () => {
    const html = renderSharedPage(
      INDEX,
      story([{ role: 'assistant', content: 'Costs $& and $1', image: '/img.png' }], 'Price $`'),
      'https://t.example/shared/x',
      'https://t.example',
    );
    expect(html).toContain('<title>Price $` | Taleweaver</title>');
    expect(html).toContain('<meta name="description" content="Costs $&amp; and $1" />');
    expect(html).toContain('<meta property="og:image" content="https://t.example/img.png" />');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
  });
});
