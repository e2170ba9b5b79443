// User-facing strings of the home page.
import { PRODUCT_NAME, type Genre } from '@shared/constants';

export const HOME_STRINGS = {
  productName: PRODUCT_NAME,
  tagline: 'Begin Your Unique Adventure.',
  logoWarningTitle: 'Warning',
  logoWarningText: `The ${PRODUCT_NAME} logo failed to load.`,
  intro:
    'Describe a scenario and an AI narrator answers. You choose what happens next, and the tale grows turn by turn.',

  createTitle: 'Create Your Own Story',
  scenarioLabel: 'Your scenario',
  scenarioPlaceholder: 'Describe your scenario',
  begin: 'Begin',
  randomDivider: 'OR TRY SOMETHING RANDOM',
  createRandom: 'Create Random Story',

  genreMixTitle: 'Genre Mix',
  genreMixHint: 'Steer new stories, random or your own, towards the genres you like.',
  active: 'Active',
  inactive: 'Inactive',
  genreMixSwitchLabel: 'Use the genre mix',
  showGenreMix: 'Show the genre mix',
  hideGenreMix: 'Hide the genre mix',
  percent: (value: number) => `${value}%`,

  presetsTitle: 'Or Choose a Preset Scenario',

  resumingTitle: 'Resuming Operation',
  resumingText: 'Starting your story where you left off',
} as const;

export const GENRE_LABELS: Record<Genre, string> = {
  fantasy: 'Fantasy',
  scifi: 'Sci-Fi',
  mystery: 'Mystery',
  horror: 'Horror',
  western: 'Western',
  postapocalyptic: 'Post-Apocalyptic',
  comedy: 'Comedy',
  historical: 'Historical',
  romance: 'Romance',
  thriller: 'Thriller',
};
