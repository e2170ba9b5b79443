// Scene image timings and limits. They live client-side because only the
// browser polls; the server's own wait per poll is its business.

/** Time between two checks of a picture still being painted. */
export const IMAGE_POLL_INTERVAL_MS = 2000;
/** A picture not ready after this many checks has failed ('Image generation timed out…'). */
export const STORY_IMAGE_MAX_ATTEMPTS = 30;
/** Checks that fail outright (network, server error) before the scene widget gives up. */
export const SCENE_IMAGE_MAX_FAILED_ATTEMPTS = 3;
