// Link previews for /shared/{shareId}: the SPA's index.html with Open Graph and Twitter meta tags
// (title, the opening lines, the first scene image) filled in on the server, because messenger and
// social-network crawlers do not run JavaScript. Every value is HTML-escaped: titles and story text
// are user input. Without a trusted base URL (PUBLIC_URL, or a loopback or ALLOWED_HOSTS request
// host: routes/public-url.ts) the tags that must be absolute are left out: og:url (crawlers then
// use the address they fetched) and the image ones (og:image must be absolute; the card falls back
// to 'summary'). Title and description still make a proper text preview.
import { PRODUCT_NAME } from '@shared/constants';
import type { SharedStory } from '@shared/schemas/sharing';

const DESCRIPTION_MAX_LENGTH = 200;

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The narrator's opening (else the first turn), cut at a word boundary. */
export function openingLines(story: SharedStory): string {
  const opening = story.messages.find((m) => m.role === 'assistant') ?? story.messages[0];
  const text = (opening?.content ?? '').replace(/\s+/g, ' ').trim();
  if (text.length <= DESCRIPTION_MAX_LENGTH) return text;
  const cut = text.slice(0, DESCRIPTION_MAX_LENGTH - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > DESCRIPTION_MAX_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/**
 * The first scene image as an absolute URL. Data URLs are left out: crawlers fetch og:image
 * themselves and cannot use one (and it would bloat every preview page). A path on this server
 * needs the trusted base URL; without one there is no image to offer.
 */
export function firstImageUrl(story: SharedStory, baseUrl: string | null): string | null {
  const image = story.messages.find((m) => m.image)?.image;
  if (!image) return null;
  if (/^https?:\/\//i.test(image)) return image;
  if (baseUrl !== null && image.startsWith('/') && !image.startsWith('//')) return `${baseUrl}${image}`;
  return null;
}

/** The tags; `baseUrl` null (no trusted base) leaves out og:url and the images of this server. */
export function previewTags(story: SharedStory, pageUrl: string | null, baseUrl: string | null): string {
  const title = story.title;
  const description = openingLines(story);
  const image = firstImageUrl(story, baseUrl);
  const tags: Array<[string, string, string]> = [
    ['property', 'og:type', 'article'],
    ['property', 'og:site_name', PRODUCT_NAME],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ...(pageUrl ? ([['property', 'og:url', pageUrl]] as Array<[string, string, string]>) : []),
    ...(image ? ([['property', 'og:image', image]] as Array<[string, string, string]>) : []),
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
    ...(image ? ([['name', 'twitter:image', image]] as Array<[string, string, string]>) : []),
  ];
  return tags
    .map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`)
    .join('\n    ');
}

/** index.html with the story's title, description and preview tags; the SPA itself is unchanged. */
export function renderSharedPage(
  indexHtml: string,
  story: SharedStory,
  pageUrl: string | null,
  baseUrl: string | null,
): string {
  const description = escapeHtml(openingLines(story));
  const withTitle = indexHtml
    .replace(/<title>[\s\S]*?<\/title>/, () => `<title>${escapeHtml(`${story.title} | ${PRODUCT_NAME}`)}</title>`)
    .replace(/<meta name="description"[^>]*>/, () => `<meta name="description" content="${description}" />`);
  // A function replacement: `$&` and friends in story text must stay literal.
  return withTitle.replace('</head>', () => `  ${previewTags(story, pageUrl, baseUrl)}\n  </head>`);
}
