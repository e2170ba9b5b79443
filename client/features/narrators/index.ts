// The narrators feature's door: the catalogue's narrators this player may pick (GET /api/narrators),
// read by the story drawer's picker and the preferences page's default for new stories.
export { narratorsQueryKey, narratorsQueryOptions, useNarrators } from './api/narrators';
