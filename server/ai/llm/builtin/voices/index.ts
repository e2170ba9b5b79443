// The ten genre voices of the offline narrator, one file each, gathered for the narrator and titles.
import type { Genre } from '@shared/constants';
import { comedy } from './comedy';
import { fantasy } from './fantasy';
import { historical } from './historical';
import { horror } from './horror';
import { mystery } from './mystery';
import { postapocalyptic } from './postapocalyptic';
import { romance } from './romance';
import { scifi } from './scifi';
import type { GenreVoice } from './types';
import { thriller } from './thriller';
import { western } from './western';

export type { GenreVoice, Opening, OpeningSlots } from './types';
export { VOICE_SIZES } from './types';

export const VOICES: Record<Genre, GenreVoice> = {
  fantasy,
  scifi,
  mystery,
  horror,
  western,
  postapocalyptic,
  comedy,
  historical,
  romance,
  thriller,
};
