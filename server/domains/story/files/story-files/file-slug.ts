// A story file's name from its title, for every file a story is downloaded as (JSON, Markdown,
// the account's data and a story's cards).

/** A file name from a title: lower-case ASCII words joined by dashes. */
export function fileSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'story';
}
