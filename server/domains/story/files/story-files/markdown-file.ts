// A story's Markdown file, to read: its title, when it was exported and how many turns it has, the
// premise, then each action and reply as prose with its picture linked. Only the shown version of
// each message is read, and the text is written line by line as the download goes. The players'
// text is shown as written: Markdown's own characters in it are escaped, never obeyed.
import { chunked } from '@server/kernel/pretty-json';
import { imageUrl } from '../../../images';
import { fileSlug } from './file-slug';
import { loadStory } from './read-story';
import type { DownloadedFile, ExportedStory, StoryFileDeps } from './types';

/**
 * Markdown's own characters in story text are shown, not obeyed: no emphasis, links, HTML or
 * tables, and no heading, quote or list where a line starts with #, >, -, + or "1.".
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\\`*_[\]<>|]/g, '\\$&')
    .replace(/^(\s*)(?:([#>+-])|(\d+)\.)/gm, (_all, space: string, mark?: string, digits?: string) =>
      mark ? `${space}\\${mark}` : `${space}${digits}\\.`,
    );
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A player's text on one Markdown line (a premise, an action, a picture's description). */
const oneLine = (text: string) => markdownText(text).replace(/\n+/g, ' ');

/** The lines of a text, joined by line breaks, one piece per line. */
function* joinedLines(lines: Iterable<string>): Generator<string> {
  let first = true;
  for (const line of lines) {
    yield first ? line : `\n${line}`;
    first = false;
  }
}

function* markdownLines({ snapshot, title }: ExportedStory, baseUrl: string, now: () => Date): Generator<string> {
  const turns = snapshot.messages.filter((m) => m.role === 'user' && !m.isInitial).length;
  yield* [
    `# ${markdownText(title)}`,
    '',
    `*Played on Taleweaver, exported ${dateFormat.format(now())}. ${turns === 1 ? '1 turn' : `${turns} turns`}.*`,
    '',
  ];
  for (const message of snapshot.messages) {
    if (message.isInitial) yield* [`> **Premise:** ${oneLine(message.content)}`, ''];
    else if (message.role === 'user') yield* ['---', '', `**You:** ${oneLine(message.content)}`, ''];
    else {
      yield* message.content.split(/\n{2,}/).flatMap((paragraph) => [markdownText(paragraph.trim()), '']);
      if (message.picture)
        yield* [`![${oneLine(message.picture.scene)}](${baseUrl}${imageUrl(message.picture.hash)})`, ''];
    }
  }
}

export async function exportMarkdown(
  deps: Pick<StoryFileDeps, 'repos' | 'picturesEnabled' | 'now' | 'narrators'>,
  userId: number,
  storyId: number,
  baseUrl: string,
): Promise<DownloadedFile> {
  const story = await loadStory(deps, userId, storyId, false);
  return {
    filename: `${fileSlug(story.title)}.md`,
    contentType: 'text/markdown; charset=utf-8',
    body: chunked(joinedLines(markdownLines(story, baseUrl, deps.now))),
  };
}
