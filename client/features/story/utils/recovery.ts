// Tolerant reading of a bookmark recovery answer. Servers have sent
// several shapes over time: messages with messageId or message_id, createdAt or created_at, image
// or imageUrl or image_url; an optional images list keyed by message_id or messageId with url or
// image (today's servers add each picture's status, thumbnail, alt and error); an optional story
// object with id (and storyImage); a message with several versions says which one it shows
// (version of versions). Every problem becomes one of the spec's messages.
import { type ScenePicture, IMAGES_STRINGS } from '@client/features/images';
import { RECOVERY_MESSAGES } from '../strings';
import type { LocalRole, LocalStoryMessage } from '../state/story-state';

export class RecoveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecoveryError';
  }
}

export type RecoveredMessage = Omit<LocalStoryMessage, 'id'>;

export interface RecoveredStory {
  storyId: number | null;
  messages: RecoveredMessage[];
  /** The story's header picture, when the answer names one (undefined: not said). */
  storyImage?: string | null;
}

type Record_ = Record<string, unknown>;
const isRecord = (value: unknown): value is Record_ =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function toId(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

function toText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const ROLES: readonly LocalRole[] = ['user', 'assistant', 'image'];

/** Turns the body text into data, telling an HTML page and broken JSON apart. */
export function parseRecoveryBody(text: string, contentType: string | null): unknown {
  const trimmed = text.trimStart();
  if ((contentType ?? '').toLowerCase().includes('text/html') || /^<(!doctype|html|head|body)/i.test(trimmed)) {
    throw new RecoveryError(RECOVERY_MESSAGES.html);
  }
  if (trimmed === '') throw new RecoveryError(RECOVERY_MESSAGES.noData);
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    throw new RecoveryError(RECOVERY_MESSAGES.parse);
  }
}

/** Sort order: the initial message first, then by time, then by server id. */
export function compareRecovered(a: RecoveredMessage, b: RecoveredMessage): number {
  if (Boolean(a.isInitialMessage) !== Boolean(b.isInitialMessage)) return a.isInitialMessage ? -1 : 1;
  const ta = a.createdAt ? Date.parse(a.createdAt) : NaN;
  const tb = b.createdAt ? Date.parse(b.createdAt) : NaN;
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta - tb;
  return (a.messageId ?? Number.MAX_SAFE_INTEGER) - (b.messageId ?? Number.MAX_SAFE_INTEGER);
}

/** Normalises the recovered data; adds the spec's notice for an empty story or missing data. */
export function normalizeRecovery(data: unknown): RecoveredStory {
  if (data === null || data === undefined || (typeof data === 'object' && Object.keys(data).length === 0)) {
    throw new RecoveryError(RECOVERY_MESSAGES.noData);
  }
  if (!isRecord(data)) throw new RecoveryError(RECOVERY_MESSAGES.parse);
  const rawMessages = data.messages;
  if (rawMessages === undefined || rawMessages === null) throw new RecoveryError(RECOVERY_MESSAGES.noMessages);
  if (!Array.isArray(rawMessages)) throw new RecoveryError(RECOVERY_MESSAGES.notArray);

  const images = new Map<number, ScenePicture>();
  if (Array.isArray(data.images)) {
    for (const entry of data.images) {
      if (!isRecord(entry)) continue;
      const id = toId(entry.message_id ?? entry.messageId);
      const picture = toPicture(entry);
      if (id !== undefined && picture) images.set(id, picture);
    }
  }

  let missing = false;
  const messages: RecoveredMessage[] = [];
  for (const raw of rawMessages) {
    if (!isRecord(raw)) {
      missing = true;
      continue;
    }
    const messageId = toId(raw.messageId ?? raw.message_id);
    const role = ROLES.includes(raw.role as LocalRole) ? (raw.role as LocalRole) : undefined;
    const content = typeof raw.content === 'string' ? raw.content : undefined;
    if (messageId === undefined || role === undefined || content === undefined) missing = true;
    const ownImage = toText(raw.image) ?? toText(raw.imageUrl) ?? toText(raw.image_url);
    const listed = messageId !== undefined ? images.get(messageId) : undefined;
    const picture: ScenePicture | undefined =
      listed ?? (ownImage ? { status: 'ready', url: ownImage, alt: '' } : undefined);
    const image = picture?.status === 'ready' ? picture.url : ownImage;
    const versions = toId(raw.versions);
    messages.push({
      messageId,
      role: role ?? 'assistant',
      content: content ?? '',
      createdAt: toText(raw.createdAt) ?? toText(raw.created_at),
      isInitialMessage: raw.isInitialMessage === true || raw.is_initial_message === true || raw.isInitial === true,
      ...(image ? { image } : {}),
      ...(picture && (role ?? 'assistant') === 'assistant' ? { picture } : {}),
      ...(versions !== undefined && versions > 1 ? { version: toId(raw.version) ?? versions, versions } : {}),
    });
  }
  messages.sort(compareRecovered);

  if (messages.length === 0)
    messages.push({ role: 'assistant', content: RECOVERY_MESSAGES.emptyStory, isNotice: true });
  else if (missing) messages.push({ role: 'assistant', content: RECOVERY_MESSAGES.missingData, isNotice: true });

  const story = isRecord(data.story) ? data.story : null;
  const recovered: RecoveredStory = { storyId: toId(story?.id) ?? null, messages };
  if (story && 'storyImage' in story) recovered.storyImage = toText(story.storyImage) ?? null;
  return recovered;
}

/** One entry of the images list: ready with a URL, pending, or failed with its reason. */
function toPicture(entry: Record_): ScenePicture | null {
  const url = toText(entry.url) ?? toText(entry.image);
  const status = entry.status;
  if (status === 'pending') return { status: 'pending' };
  if (status === 'failed') return { status: 'failed', reason: toText(entry.error) ?? IMAGES_STRINGS.generationFailed };
  if (!url) return null;
  const size = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);
  return {
    status: 'ready',
    url,
    thumbnail: toText(entry.thumbnail),
    alt: toText(entry.alt) ?? '',
    width: size(entry.width),
    height: size(entry.height),
  };
}
