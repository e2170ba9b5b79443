// The story page's first read, started by the entry point the moment the address names a story
// (kept below the features so the entry starts it without loading the story feature):
// GET current-state then runs beside the loading of the page's code and the session check instead
// of after them (for a long story that read is the largest step of opening it). The story page
// takes it once, within a few seconds; anything else reads afresh.
import { apiGetEarly } from '@client/lib/api-client';

const FRESH_MS = 10_000;
const STORY_PATH = /^\/story\/(\d{1,15})\/?$/;

let early: { storyId: number; at: number; response: Promise<Response> } | null = null;

export function startEarlyStoryRead(location: Pick<Location, 'pathname' | 'search'>, now = Date.now()): void {
  const match = STORY_PATH.exec(location.pathname);
  // A bookmark (messageId) opens through recovery, not this read.
  if (!match || new URLSearchParams(location.search).has('messageId')) return;
  const response = apiGetEarly(`/api/story/${match[1]}/current-state`);
  // Unclaimed (a visitor, another page), its failure is nobody's business.
  response.catch(() => {});
  early = { storyId: Number(match[1]), at: now, response };
}

/** The early read of this story, once; null when there is none, or it is for another story, or stale. */
export function takeEarlyStoryRead(storyId: number, now = Date.now()): Promise<Response> | null {
  const hit = early && early.storyId === storyId && now - early.at < FRESH_MS ? early.response : null;
  early = null;
  return hit;
}
