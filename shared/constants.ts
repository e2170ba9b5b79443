// The spec's business constants and fixed value lists, shared by client and server.

export const PRODUCT_NAME = 'Taleweaver';

export const SESSION_CHECK_INTERVAL_MS = 30_000;
export const USER_QUERY_STALE_MS = 5 * 60_000;
export const DATA_FRESH_MS = 30_000;
export const READ_RETRY_LIMIT = 3;

export const TOAST_LIFETIME_MS = 5000;
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOOLTIP_DELAY_MS = 700;

/** Narration ('Speech'): every utterance and server part is spoken at these settings. */
export const SPEECH_RATE = 0.9;
export const SPEECH_PITCH = 1;
export const SPEECH_VOLUME = 1;

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;
export const USERNAME_CHECK_DELAY_MS = 500;
export const PASSWORD_MIN_LENGTH = 6;
export const NEW_PASSWORD_MIN_LENGTH = 8;
/** Argon2 hashes long inputs fine, but an unbounded password is a cheap denial-of-service lever. */
export const PASSWORD_MAX_LENGTH = 256;
export const EMAIL_MAX_LENGTH = 254;
export const CAPTCHA_ANSWER_MAX_LENGTH = 16;

export const LOADING_MESSAGE_ROTATION_MS = 3000;
export const LOCAL_MESSAGE_ID_LENGTH = 21;

export const THEME_STORAGE_KEY = 'vite-ui-theme';
export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'dark';

export const GENRES = [
  'fantasy',
  'scifi',
  'mystery',
  'horror',
  'western',
  'postapocalyptic',
  'comedy',
  'historical',
  'romance',
  'thriller',
] as const;
export type Genre = (typeof GENRES)[number];

export const CONTENT_RATINGS = ['general', 'teen', 'mature'] as const;
export const NARRATIVE_STYLES = ['descriptive', 'concise', 'dramatic'] as const;
export const LANGUAGE_STYLES = ['modern', 'archaic', 'formal'] as const;

/** Estimated cost per token. */
export const COST_PER_TEXT_TOKEN = 0.000004;
export const COST_PER_IMAGE_TOKEN = 0.00002;

/** Story input limits: the premise (scenario) and each player action. */
export const STORY_PREMISE_MAX_LENGTH = 4000;
export const STORY_ACTION_MAX_LENGTH = 2000;
export const STORY_TITLE_MAX_LENGTH = 60;

/** Bookmark text limits; the spec names none, these keep a row small and a list readable. */
export const BOOKMARK_TITLE_MAX_LENGTH = 120;
export const BOOKMARK_DESCRIPTION_MAX_LENGTH = 1000;

/** Recovery and story-page timings. */
export const RECOVERY_TIMEOUT_MS = 15_000;
export const RECOVERY_START_DELAY_MS = 100;
export const CONTINUATION_DELAY_MS = 500;
export const FOCUS_DELAY_MS = 100;
export const HIGHLIGHT_MS = 2000;
export const SCROLL_NEAR_BOTTOM_PX = 100;

export const GENRE_SLIDER_STEP = 10;
/** The start screen's mix: 25 each for the first four genres, 0 for the rest. */
export const START_SCREEN_GENRE_MIX: Record<Genre, number> = {
  fantasy: 25,
  scifi: 25,
  mystery: 25,
  horror: 25,
  western: 0,
  postapocalyptic: 0,
  comedy: 0,
  historical: 0,
  romance: 0,
  thriller: 0,
};

/** The four preset scenarios of the start screen; `id` is the value of the preset query parameter. */
export const STORY_PRESETS = [
  {
    id: 'fantasy-quest',
    label: 'Fantasy Quest',
    scenario:
      'I am Wren, a young cartographer in the mountain kingdom of Eldmoor, where the old maps have begun to redraw themselves overnight. This morning my master vanished, leaving a half-inked map of a valley that no one has ever seen and a silver compass whose needle points not north but toward a dragon-shaped peak on the horizon.',
  },
  {
    id: 'space-explorer',
    label: 'Space Explorer',
    scenario:
      'I am Captain Imani Reyes of the survey ship Meridian, three years out from Earth at the edge of charted space. Our long-range scanners have just picked up a derelict vessel of unknown design drifting around a dead star, broadcasting a repeating signal in a language our computer insists is our own, recorded two hundred years in the future.',
  },
  {
    id: 'detective-mystery',
    label: 'Detective Mystery',
    scenario:
      'I am Detective Sam Calloway in rain-soaked 1947 San Francisco. The city’s most famous jazz pianist was found dead in a locked dressing room between sets, with the club’s doorman swearing nobody went in or out. On the piano lies a sheet of music with one bar rewritten in red ink, and the widow has just walked into my office asking me to prove it was not suicide.',
  },
  {
    id: 'lost-civilization',
    label: 'Lost Civilization',
    scenario:
      'I am Dr. Lena Okafor, an archaeologist leading a small expedition deep into the Amazon after satellite images revealed geometric stone terraces beneath the canopy. Our guide has refused to go further, our radio died last night, and at dawn we found fresh footprints circling our camp, leading toward a stairway carved into the side of a waterfall.',
  },
] as const;
export type StoryPreset = (typeof STORY_PRESETS)[number];

/** Sharing: titles as long as a bookmark's (sharing also bookmarks the story); ids are URL-safe base64. */
export const SHARE_TITLE_MAX_LENGTH = 120;
export const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;

/** Shared story loading: full page and the in-app-browser preview. */
export const SHARED_STORY_TIMEOUT_MS = 10_000;
export const SHARED_STORY_RETRIES = 2;
export const SHARED_STORY_LIGHT_TIMEOUT_MS = 5000;
export const SHARED_STORY_LIGHT_RETRIES = 1;
export const SHARED_STORY_RETRY_DELAYS_MS = [1000, 2000] as const;
export const LIGHT_PREVIEW_MAX_MESSAGES = 5;
export const LIGHT_PREVIEW_MAX_IMAGES = 1;
export const COPIED_INDICATOR_MS = 2000;
export const DEFAULT_SHARE_TITLE = 'My Story';

// Ads: the in-chat frequency level starts at 1 and rises to at most 10;
// the player's frequency slider runs 1-10 in steps of 1, default 3.
export const AD_FREQUENCY_LEVEL_START = 1;
export const AD_FREQUENCY_LEVEL_MAX = 10;
export const AD_MESSAGE_FREQUENCY_DEFAULT = 3;
export const AD_MESSAGE_FREQUENCY_MIN = 1;
export const AD_MESSAGE_FREQUENCY_MAX = 10;
