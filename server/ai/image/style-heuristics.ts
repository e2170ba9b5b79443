// How a story looks, worked out without a model: the art style from the premise's genre (the same
// classifyGenre decision the narrator writes by) and the content rating, the names in a scene, and a
// stable look per named character (the same name always gets the same face, hair and clothes). The
// builtin narrator answers style-sheet requests with these, and a real model's unusable answer falls
// back to them.
import { classifyGenre } from '@server/ai/genre';
import type { Genre } from '@shared/constants';
import type { StyleCharacter } from '@shared/schemas/images';
import type { ContentRating } from '@shared/schemas/preferences';

const ART_STYLES: Record<Genre, string> = {
  fantasy: 'painterly high-fantasy illustration, rich colour, soft golden light',
  scifi: 'cinematic science-fiction concept art, cool neon and steel tones',
  mystery: 'moody noir illustration, muted palette, deep shadows',
  horror: 'dark gothic horror illustration, desaturated, eerie low light',
  western: 'sun-baked western painting, warm ochre and dust',
  postapocalyptic: 'gritty post-apocalyptic concept art, rust and ash tones',
  comedy: 'bright whimsical storybook illustration, bold cheerful colours',
  historical: 'classical historical oil painting, period-accurate detail',
  romance: 'soft romantic watercolour illustration, warm pastel light',
  thriller: 'tense cinematic thriller still, high contrast, cold tones',
};

const RATING_STYLE: Record<ContentRating, string> = {
  general: 'suitable for all ages, no gore',
  teen: 'no graphic gore or nudity',
  mature: 'mature themes allowed, never explicit',
};

const NEGATIVE: Record<ContentRating, string> = {
  general: 'gore, blood, graphic violence, nudity, sexual content, disturbing imagery, text, watermark, signature',
  teen: 'graphic gore, nudity, sexual content, text, watermark, signature',
  mature: 'explicit sexual content, text, watermark, signature',
};

export function artStyleFor(premise: string, rating: ContentRating): string {
  return `${ART_STYLES[classifyGenre(premise).genre]}; ${RATING_STYLE[rating]}`;
}

/** What a picture must not show, by content rating (sent as a negative prompt where the painter takes one). */
export function negativePromptFor(rating: ContentRating): string {
  return NEGATIVE[rating];
}

const NOT_NAMES = new Set(
  `You Your Yours The A An And But Or If As At In On Of To For From With By It Its He She They We I Me My His Her Their Our This That These Those
  There Here Then When Where What Who Whom Why How Which While Still Yet Now Soon Somewhere Something Someone Suddenly Perhaps Maybe Only
  Behind Beyond Above Below Before After Across Around Inside Outside Through Under Over Every Each All Some Most Many Few No Not None
  Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December
  God Gods Sir Lady Lord Captain Doctor Mister Miss Mrs Mr Ms Dr King Queen Prince Princess North South East West Earth Mars Moon Sun`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Names of people in a text: capitalised words (or two-word names) that are not at the start of a
 * sentence and not common words. Crude on purpose; a real narrator model does this better.
 */
export function findNames(text: string): string[] {
  const names = new Map<string, string>();
  // Up to three capitalised words in a row ("Captain Ilsa Morrow"), titles then dropped.
  const pattern = /(^|[.!?]["”’']?\s+|["“‘(]|\s)([A-Z][a-z]{2,}(?:\s[A-Z][a-z]{2,}){0,2})/g;
  for (const match of text.matchAll(pattern)) {
    const sentenceStart = match[1] === '' || /[.!?]/.test(match[1]) || /["“‘(]/.test(match[1]);
    if (sentenceStart) continue;
    const candidate = match[2]
      .split(' ')
      .filter((word) => !NOT_NAMES.has(word))
      .join(' ');
    if (candidate && !NOT_NAMES.has(candidate)) names.set(candidate.toLowerCase(), candidate);
  }
  return [...names.values()].slice(0, 12);
}

function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const pick = <T>(list: readonly T[], h: number, salt: number): T => list[(h >>> salt) % list.length];

const FACES = [
  'a narrow, weathered face',
  'a round, freckled face',
  'a sharp-jawed face with a scar on the chin',
  'a kind, lined face',
  'a pale, angular face',
  'a broad, sun-browned face',
  'a youthful face with bright eyes',
  'a stern face with heavy brows',
];
const HAIR = [
  'short silver hair',
  'long black braided hair',
  'curly copper-red hair',
  'a shaved head',
  'shoulder-length chestnut hair',
  'ash-blond hair tied back',
  'wild grey hair',
  'dark cropped hair',
];
const CLOTHES: Record<Genre, string[]> = {
  fantasy: [
    'a moss-green hooded cloak over leather armour',
    'deep blue robes stitched with silver runes',
    'a dented steel breastplate and red tabard',
  ],
  scifi: [
    'a grey flight suit with orange shoulder patches',
    'a white lab coat over a black bodysuit',
    'scuffed armoured spacer gear',
  ],
  mystery: [
    'a long tan trench coat and a felt hat',
    'a tweed waistcoat and rolled shirtsleeves',
    'a dark overcoat with the collar turned up',
  ],
  horror: ['a torn black mourning dress', 'a mud-stained grey coat', 'an old-fashioned nightshirt and a lantern'],
  western: [
    'a dusty duster coat and a wide-brimmed hat',
    'a checked shirt, leather vest and gun belt',
    'a faded blue prairie dress',
  ],
  postapocalyptic: [
    'patched scavenger gear and a gas mask on a strap',
    'a rust-brown poncho over body armour',
    'layered rags and welding goggles',
  ],
  comedy: [
    'a bright yellow raincoat two sizes too big',
    'a polka-dot bow tie and a crumpled suit',
    'striped overalls and mismatched socks',
  ],
  historical: [
    'a linen tunic and a wool cloak with a bronze brooch',
    'a brocade doublet and a starched ruff',
    'a high-collared Victorian coat',
  ],
  romance: ['a flowing cream dress', 'a crisp white shirt open at the collar', 'a deep red velvet jacket'],
  thriller: ['a black tactical jacket', 'a sharp charcoal suit and an earpiece', 'a grey hoodie and worn sneakers'],
};

/** A stable look for a named character: the same name in the same genre always looks the same. */
export function lookFor(name: string, genre: Genre): StyleCharacter {
  const h = hashOf(name.toLowerCase());
  return { name, face: pick(FACES, h, 0), hair: pick(HAIR, h, 5), clothes: pick(CLOTHES[genre], h, 11) };
}

const PLAYER: Record<Genre, string> = {
  fantasy: 'a lone traveller in a hooded grey cloak with a short sword, usually seen from behind',
  scifi: 'a spacer in a worn blue flight jacket with a helmet under one arm, usually seen from behind',
  mystery: 'an investigator in a dark coat holding a notebook, usually seen from behind',
  horror: 'a wary figure in a rain-soaked coat carrying a flashlight, usually seen from behind',
  western: 'a rider in a sun-bleached hat and long coat, usually seen from behind',
  postapocalyptic: 'a survivor in patched gear with a backpack and a bandana, usually seen from behind',
  comedy: 'a cheerful adventurer in a striped scarf, usually seen from behind',
  historical: 'a traveller in period clothes and a travelling cloak, usually seen from behind',
  romance: 'a young traveller in a simple elegant coat, usually seen from behind',
  thriller: 'an operative in a dark jacket, usually seen from behind',
};

export function playerLookFor(genre: Genre): string {
  return PLAYER[genre];
}
