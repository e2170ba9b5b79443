// Reads a narrator reply (and the story's art style) with keyword heuristics: the genre that sets
// the palette, the time of day and weather that set the sky, the setting that sets the backdrop,
// and up to six named things the painter draws as silhouettes. No model: plain word lists, so
// the same text always reads the same way and a test can say what a scene must contain.

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

export const SETTINGS = [
  'sea',
  'forest',
  'mountains',
  'city',
  'ruins',
  'space',
  'desert',
  'cave',
  'castle',
  'village',
  'interior',
  'plains',
] as const;
export type Setting = (typeof SETTINGS)[number];

export type TimeOfDay = 'dawn' | 'day' | 'dusk' | 'night';
export type Weather = 'clear' | 'rain' | 'snow' | 'fog' | 'storm';

export const THINGS = [
  'lantern',
  'torch',
  'candle',
  'tower',
  'door',
  'ship',
  'spaceship',
  'dragon',
  'sword',
  'moon',
  'river',
  'bridge',
  'tree',
  'skull',
  'grave',
  'key',
  'book',
  'horse',
  'crystal',
  'raven',
  'wolf',
  'robot',
  'chest',
  'cactus',
  'figure',
  'car',
] as const;
export type Thing = (typeof THINGS)[number];

export interface SceneAnalysis {
  genre: Genre;
  setting: Setting;
  timeOfDay: TimeOfDay;
  weather: Weather;
  /** In the order the text names them, at most MAX_THINGS. */
  things: Thing[];
}

export const MAX_THINGS = 6;

// A trailing * matches any ending ("forest*" finds forests, forested); `_` joins a phrase.
const GENRE_WORDS: Record<Genre, string> = {
  fantasy:
    'fantasy magic* dragon* elf elves elven wizard* sorcer* enchant* spell* kingdom* dwarf* dwarv* mage* quest* fairy fae',
  scifi:
    'science-fiction science_fiction sci-fi scifi cyberpunk futuristic space starship* spaceship* android* robot* laser* alien* cyber* hologram* spacecraft',
  mystery: 'mystery mysteries noir detective* clue* sleuth* whodunit inspector* investigat* suspect* alibi*',
  horror:
    'horror* gothic eldritch haunt* ghost* dread blood* corpse* undead zombie* macabre creep* terror vampire* ghoul*',
  western: 'western frontier* cowboy* saloon* sheriff* outlaw* gunslinger* ranch* revolver* stagecoach* wild_west',
  postapocalyptic:
    'apocalyp* post-apocalyptic wasteland* fallout survivor* radiation irradiated scaveng* mutant* bunker*',
  comedy: 'comedy comic* cartoon* whimsical humorous slapstick silly goofy playful funny absurd* zany',
  historical:
    'historical history period victorian renaissance medieval roman regency baroque edwardian napoleonic viking* samurai sepia antique',
  romance: 'romance romantic love* lover* pastel tender kiss* beloved passion* heart*',
  thriller: 'thriller suspense* spy spies espionage heist conspirac* chase* assassin* agent* gritty pursuit',
};

const SETTING_WORDS: Record<Setting, string> = {
  sea: 'sea seas seaside ocean* wave* coast* shore* beach* harbo* tide* deck decks sail* pier* dock* bay surf cove* lighthouse* voyage*',
  forest:
    'forest* wood woods woodland* tree trees pine* grove* thicket* glade* undergrowth oak* birch* jungle* canopy bough* fern* moss*',
  mountains: 'mountain* peak* cliff* summit* ridge* crag* slope* alpine glacier* valley* highland*',
  city: 'city cities street* alley* skyscraper* neon rooftop* avenue* downtown metropolis traffic apartment* tenement* subway* district* boulevard* sidewalk* skyline',
  ruins: 'ruin* rubble crumbl* temple* debris collapsed overgrown pillar* column* relic* abandoned',
  space:
    'space planet* orbit* starship* spaceship* galax* nebula* asteroid* cosmos cosmic airlock* cockpit* zero-g vacuum starfield satellite*',
  desert: 'desert deserts dune* sand* canyon* mesa* oasis arid cactus cacti scorch* badlands sun-baked dusty',
  cave: 'cave cavern* caves tunnel* underground grotto* mine mines stalact* stalagm* catacomb* dungeon* crypt* burrow*',
  castle:
    'castle* fortress* battlement* rampart* citadel* throne* courtyard* drawbridge* palace* turret* parapet* moat* gatehouse*',
  village: 'village* hamlet* cottage* farm* town towns market* thatch* chimney* houses',
  interior:
    'tavern* inn room rooms hearth* fireplace* saloon* parlour* parlor* kitchen* library chamber* hall hallway* corridor* bedroom* cellar* attic* office* indoors bar',
  plains: 'plain plains meadow* field* grass* prairie* steppe* hill* farmland pasture*',
};

const TIME_WORDS: Record<TimeOfDay, string> = {
  night: 'night* midnight moon moonlight* moonlit stars starlight starlit starry nocturnal',
  dusk: 'dusk sunset* evening* twilight sundown gloaming setting_sun',
  dawn: 'dawn* sunrise* daybreak morning* first_light early_light',
  day: 'noon midday afternoon* daylight sunlight sunlit sunny sunshine day daytime blazing_sun high_sun',
};

const WEATHER_WORDS: Record<Exclude<Weather, 'clear'>, string> = {
  storm: 'storm* thunder* lightning tempest* gale* hurricane* squall*',
  rain: 'rain rains raining rained rainy drizzl* downpour* puddle* raindrop* sodden soaked monsoon',
  snow: 'snow* blizzard* sleet frost* icy winter* frozen hail icicle*',
  fog: 'fog* mist mists misty haze hazy murk* smog',
};

const THING_WORDS: Record<Thing, string> = {
  lantern: 'lantern* lamp*',
  torch: 'torch* fire fires flame* campfire* bonfire* brazier*',
  candle: 'candle*',
  tower: 'tower* spire* lighthouse*',
  door: 'door* gate gates doorway* portal*',
  ship: 'ship ships boat* galleon* vessel* schooner* frigate* sloop*',
  spaceship: 'starship* spaceship* spacecraft shuttle* freighter*',
  dragon: 'dragon* wyrm* wyvern* drake*',
  sword: 'sword* blade* sabre* saber* dagger*',
  moon: 'moon moons moonlight moonlit',
  river: 'river* stream* creek* brook*',
  bridge: 'bridge*',
  tree: 'tree trees oak* willow*',
  skull: 'skull* bones skeleton*',
  grave: 'grave graves gravestone* tomb* headstone* cemeter* graveyard*',
  key: 'key keys',
  book: 'book* tome* journal* scroll* grimoire*',
  horse: 'horse* steed* mare stallion* pony',
  crystal: 'crystal* gem gems gemstone* jewel* orb orbs',
  raven: 'raven* crow crows bird* owl*',
  wolf: 'wolf wolves hound* dog dogs',
  robot: 'robot* android* droid* mech mechs',
  chest: 'chest treasure coffer*',
  cactus: 'cactus cacti',
  figure: 'figure* stranger* silhouette* knight* traveller* traveler* cloaked hooded woman man',
  car: 'car cars taxi* truck* automobile*',
};

/** One regex per word list; `_` joins the words of a phrase, a trailing `*` matches any ending. */
function compile(words: string): RegExp {
  const terms = words.split(/\s+/).map((word) => word.replace(/_/g, '\\s+').replace(/\*$/, '\\w*'));
  return new RegExp(`\\b(?:${terms.join('|')})\\b`, 'g');
}

interface Hits {
  count: number;
  first: number;
}

function hitsOf(text: string, pattern: RegExp): Hits {
  let count = 0;
  let first = Number.POSITIVE_INFINITY;
  for (const match of text.matchAll(pattern)) {
    count += 1;
    if (match.index < first) first = match.index;
  }
  return { count, first };
}

function compileTable<K extends string>(table: Record<K, string>): Array<[K, RegExp]> {
  return (Object.entries(table) as Array<[K, string]>).map(([key, words]) => [key, compile(words)]);
}

const GENRE_PATTERNS = compileTable(GENRE_WORDS);
const SETTING_PATTERNS = compileTable(SETTING_WORDS);
const TIME_PATTERNS = compileTable(TIME_WORDS);
const WEATHER_PATTERNS = compileTable(WEATHER_WORDS);
const THING_PATTERNS = compileTable(THING_WORDS);

/** The key with most hits; ties go to the one the text names first, then to table order. */
function strongest<K extends string>(scores: Array<[K, Hits]>): K | null {
  let best: [K, Hits] | null = null;
  for (const entry of scores) {
    if (entry[1].count === 0) continue;
    if (!best || entry[1].count > best[1].count || (entry[1].count === best[1].count && entry[1].first < best[1].first))
      best = entry;
  }
  return best ? best[0] : null;
}

function score<K extends string>(text: string, patterns: Array<[K, RegExp]>): Array<[K, Hits]> {
  return patterns.map(([key, pattern]) => [key, hitsOf(text, pattern)]);
}

function readGenre(text: string, artStyle: string): Genre {
  // The art style names the genre on purpose; the scene's own words only break a silence or a tie.
  const style = score(artStyle, GENRE_PATTERNS);
  const scene = score(text, GENRE_PATTERNS);
  const combined = style.map(([key, hits], i): [Genre, Hits] => [
    key,
    { count: hits.count * 3 + scene[i][1].count, first: Math.min(hits.first, scene[i][1].first + 10_000) },
  ]);
  return strongest(combined) ?? 'fantasy';
}

function defaultTime(genre: Genre, setting: Setting): TimeOfDay {
  if (setting === 'space') return 'night';
  if (genre === 'horror' || genre === 'mystery') return 'night';
  if (genre === 'thriller' || genre === 'romance') return 'dusk';
  return 'day';
}

export function analyseScene(text: string, artStyle: string): SceneAnalysis {
  const lower = text.toLowerCase();
  const genre = readGenre(lower, artStyle.toLowerCase());
  const setting = strongest(score(lower, SETTING_PATTERNS)) ?? 'plains';
  const timeOfDay =
    setting === 'space' ? 'night' : (strongest(score(lower, TIME_PATTERNS)) ?? defaultTime(genre, setting));
  const weatherScores = score(lower, WEATHER_PATTERNS);
  // A storm brings its own rain, so one mention of thunder outweighs the rain words around it.
  const weather: Weather =
    setting === 'space'
      ? 'clear'
      : weatherScores[0][1].count > 0
        ? 'storm'
        : (strongest(weatherScores.slice(1)) ?? 'clear');
  const things = score(lower, THING_PATTERNS)
    .filter(([, hits]) => hits.count > 0)
    .sort((a, b) => a[1].first - b[1].first)
    .slice(0, MAX_THINGS)
    .map(([thing]) => thing);
  return { genre, setting, timeOfDay, weather, things };
}
