// Premises with the genre a person would give them: the yardstick for classifyGenre. Labels were
// written before the lexicon was tuned and are not changed to suit it; a premise the classifier
// reads otherwise is a miss to fix in the lexicon (or to accept), never a label to move.
import { STORY_PRESETS, type Genre } from '@shared/constants';
import { composeRandomPrompt, composeStoryPrompt } from '@shared/prompt/genre-mix';

export interface GenreCorpusEntry {
  premise: string;
  genre: Genre;
}

const TYPED: GenreCorpusEntry[] = [
  // Fantasy
  { genre: 'fantasy', premise: 'A night market on a floating city where lanterns whisper secrets' },
  { genre: 'fantasy', premise: 'I am an apprentice wizard who just set my master’s tower on fire' },
  { genre: 'fantasy', premise: 'A dragon has slept under our village for a hundred years and this morning it woke up' },
  { genre: 'fantasy', premise: 'I’m an elf ranger tracking orcs through the northern woods' },
  { genre: 'fantasy', premise: 'I find a sword in the lake that hums when I touch it' },
  { genre: 'fantasy', premise: 'The queen’s spell turned everyone in the castle to stone, except me' },
  { genre: 'fantasy', premise: 'My grandmother’s cottage door opens onto a different forest every night' },
  { genre: 'fantasy', premise: 'I’m a knight sworn to protect a princess who does not want protecting' },
  { genre: 'fantasy', premise: 'I’m a blacksmith’s daughter and the old hermit says I’m the heir to the throne' },
  // Science fiction
  { genre: 'scifi', premise: 'I wake up from cryosleep and the ship’s AI won’t tell me how long I’ve been out' },
  { genre: 'scifi', premise: 'I’m a mechanic on a mining colony on Europa' },
  { genre: 'scifi', premise: 'First contact: the aliens landed in my backyard and only speak in music' },
  { genre: 'scifi', premise: 'I pilot a starship smuggling medicine past the blockade' },
  { genre: 'scifi', premise: 'My android butler has started dreaming' },
  { genre: 'scifi', premise: 'In 2340 humanity lives in orbital habitats and I just inherited one' },
  { genre: 'scifi', premise: 'I’m the only human crew member on a ship run by robots' },
  { genre: 'scifi', premise: 'I hack into the neural network of a megacorp in a neon city' },
  { genre: 'scifi', premise: 'The last colony ship arrives at its new planet but someone is already there' },
  // Mystery
  { genre: 'mystery', premise: 'The butler is found dead in the library and everyone at dinner has a motive' },
  { genre: 'mystery', premise: 'I’m a private investigator hired to find a missing cat, but the owner is lying' },
  { genre: 'mystery', premise: 'Someone in our small town keeps leaving anonymous letters that predict deaths' },
  { genre: 'mystery', premise: 'I’m a retired schoolteacher who notices the same stranger at three funerals' },
  { genre: 'mystery', premise: 'A painting disappears from a locked gallery overnight and I am the only witness' },
  { genre: 'mystery', premise: 'I am an inspector in Victorian London investigating a string of poisonings' },
  {
    genre: 'mystery',
    premise: 'My sister vanished from a train between two stations and nobody remembers her boarding',
  },
  { genre: 'mystery', premise: 'Who stole the prize pumpkin from the village fair?' },
  // Horror
  { genre: 'horror', premise: 'We move into an old farmhouse and the scratching in the walls gets louder every night' },
  { genre: 'horror', premise: 'I’m a night nurse on a ward where the patients all whisper the same name' },
  { genre: 'horror', premise: 'A cabin in the woods, five friends, and something that wears faces' },
  { genre: 'horror', premise: 'The thing in the lake took my brother and now it’s calling me' },
  { genre: 'horror', premise: 'I am a priest sent to a village where no child has cried in a year' },
  {
    genre: 'horror',
    premise: 'A haunted doll keeps showing up on my doorstep no matter how many times I throw it away',
  },
  { genre: 'horror', premise: 'Zombies overrun the shopping mall where I work the night shift' },
  { genre: 'horror', premise: 'Every night at 3:33 my phone rings and it’s my own voice on the line' },
  // Western
  { genre: 'western', premise: 'I ride into a dusty town where the sheriff was shot last night' },
  { genre: 'western', premise: 'I’m a bounty hunter chasing an outlaw across the desert to the Mexican border' },
  { genre: 'western', premise: 'A stagecoach carrying gold is robbed and I’m the only passenger left alive' },
  { genre: 'western', premise: 'I run the saloon in a frontier town that the railroad wants to buy' },
  { genre: 'western', premise: 'My family’s ranch is threatened by cattle rustlers' },
  { genre: 'western', premise: 'I’m a gunslinger trying to hang up my revolver for good' },
  { genre: 'western', premise: 'A lone cowgirl drives her herd through Comanche territory in 1870' },
  { genre: 'western', premise: 'I’m the new schoolteacher in a mining camp in the Nevada territory' },
  // Post-apocalyptic
  { genre: 'postapocalyptic', premise: 'Twenty years after the bombs fell, I trade water in the ruins of Denver' },
  { genre: 'postapocalyptic', premise: 'I’m a scavenger in the wasteland and I just found a working radio' },
  {
    genre: 'postapocalyptic',
    premise: 'After the plague, my daughter and I walk north looking for the last safe city',
  },
  { genre: 'postapocalyptic', premise: 'The power grid went down a year ago and our town has split into two gangs' },
  {
    genre: 'postapocalyptic',
    premise: 'I grew up in an underground bunker and today is the first time I see the sky',
  },
  {
    genre: 'postapocalyptic',
    premise: 'Mutants roam the highways and I drive the last supply truck between settlements',
  },
  { genre: 'postapocalyptic', premise: 'Civilization collapsed when the seas rose, and I sail between flooded cities' },
  { genre: 'postapocalyptic', premise: 'I keep chickens on the roof of a dead skyscraper, and raiders come at night' },
  // Comedy
  { genre: 'comedy', premise: 'I accidentally become the mayor of a town of goats' },
  { genre: 'comedy', premise: 'My talking cat insists he is the rightful king of France' },
  { genre: 'comedy', premise: 'I’m a wedding planner and everything at this wedding is going ridiculously wrong' },
  { genre: 'comedy', premise: 'I’m the world’s worst superhero and my only power is making toast' },
  {
    genre: 'comedy',
    premise: 'I have to cook dinner for my boyfriend’s parents, but I can’t cook and the kitchen is on fire',
  },
  { genre: 'comedy', premise: 'A gang of clumsy burglars tries to rob a bank on the day it moves buildings' },
  { genre: 'comedy', premise: 'My grandma joins a biker gang and I have to bring her home before bingo night' },
  {
    genre: 'comedy',
    premise: 'I’m a substitute teacher and the class hamster escaped during the school inspection',
  },
  { genre: 'comedy', premise: 'My dog is running for city council and he’s winning' },
  // Historical
  { genre: 'historical', premise: 'In 1815 I serve as a courier for the Duke of Wellington before Waterloo' },
  { genre: 'historical', premise: 'I’m a Roman legionary stationed on Hadrian’s Wall' },
  { genre: 'historical', premise: 'I am a scribe in the court of Pharaoh Ramesses' },
  { genre: 'historical', premise: 'I work in a cotton mill in Manchester in 1842 and we’re planning a strike' },
  { genre: 'historical', premise: 'I sail with Magellan’s fleet as a cabin boy' },
  { genre: 'historical', premise: 'I’m a nurse in a field hospital during the First World War' },
  { genre: 'historical', premise: 'I’m a samurai serving a daimyo in feudal Japan' },
  { genre: 'historical', premise: 'I’m a Viking raider landing on the coast of Northumbria' },
  { genre: 'historical', premise: 'I’m a printer’s apprentice in Mainz when Gutenberg needs help' },
  // Romance
  { genre: 'romance', premise: 'I open a bakery in Paris and fall for the florist next door' },
  { genre: 'romance', premise: 'My best friend and I agree to fake-date for my sister’s wedding' },
  { genre: 'romance', premise: 'I’m a barista and the same stranger leaves me a poem with every tip' },
  { genre: 'romance', premise: 'Two rival chefs are forced to share a kitchen for a summer' },
  { genre: 'romance', premise: 'I meet my first love again at our high school reunion' },
  {
    genre: 'romance',
    premise: 'I’m a lighthouse keeper, a shipwrecked sailor washes ashore, and I can’t stop thinking about her',
  },
  { genre: 'romance', premise: 'We matched on a dating app, but she turns out to be my new boss' },
  { genre: 'romance', premise: 'Letters from a pen pal I’ve never met start to feel like the best part of my day' },
  { genre: 'romance', premise: 'I’m a wedding photographer who falls for the best man' },
  // Thriller
  { genre: 'thriller', premise: 'I’m a spy whose cover was just blown in Berlin' },
  {
    genre: 'thriller',
    premise: 'Someone hacked my phone and is threatening my family unless I steal a file from work',
  },
  { genre: 'thriller', premise: 'I am a bodyguard for a witness the cartel wants dead' },
  { genre: 'thriller', premise: 'I have 24 hours to find the bomb before it goes off in the subway' },
  { genre: 'thriller', premise: 'I’m a journalist and a source just gave me proof of a government conspiracy' },
  { genre: 'thriller', premise: 'We plan the heist of the century on a casino in Monaco' },
  { genre: 'thriller', premise: 'I wake up in a hotel room with a gun, a stranger’s passport and no memory' },
  { genre: 'thriller', premise: 'An assassin is hunting me across Europe and I don’t know why' },
  { genre: 'thriller', premise: 'I’m a taxi driver and my passenger tells me to follow that car' },
];

/**
 * Written after the lexicon's first draft and before it was run on them, to see how it does on
 * premises it was not written with in view: the first draft agreed on 22 of these 50 (44%), then
 * the lexicon was widened with general vocabulary.
 */
const HELD_OUT: GenreCorpusEntry[] = [
  { genre: 'fantasy', premise: 'I’m a goblin who wants to become a chef in the human city' },
  { genre: 'fantasy', premise: 'The last unicorn is hiding in my barn' },
  { genre: 'fantasy', premise: 'I am a witch running a small potion shop in a seaside town' },
  { genre: 'fantasy', premise: 'A girl discovers she can talk to the wind' },
  { genre: 'fantasy', premise: 'I’m a squire who has to finish my knight’s quest after he falls off his horse' },
  { genre: 'scifi', premise: 'I’m an engineer fixing the reactor on a generation ship' },
  {
    genre: 'scifi',
    premise: 'Humans can now upload their minds, and I’m a detective investigating a murdered copy',
  },
  { genre: 'scifi', premise: 'A signal from deep space turns out to be a warning' },
  { genre: 'scifi', premise: 'I’m a teenager on a terraformed Mars colony' },
  { genre: 'scifi', premise: 'My clone shows up at my front door asking for my job' },
  { genre: 'mystery', premise: 'Who poisoned the judge at the charity gala?' },
  {
    genre: 'mystery',
    premise: 'I run a bookshop, and someone keeps leaving coded notes inside the old atlases',
  },
  { genre: 'mystery', premise: 'A guest at my bed and breakfast disappears, leaving only a muddy boot' },
  { genre: 'mystery', premise: 'I’m a crossword setter and my latest puzzle seems to be predicting crimes' },
  { genre: 'mystery', premise: 'The village vicar asks me to find out who’s been poisoning the rosebushes' },
  { genre: 'horror', premise: 'I’m babysitting, and the kids keep talking to someone in the empty bedroom' },
  { genre: 'horror', premise: 'I inherit my great-aunt’s house and find a locked room full of mirrors' },
  { genre: 'horror', premise: 'Something is following me through the corn maze' },
  { genre: 'horror', premise: 'A demon answers when I read the old book aloud' },
  { genre: 'western', premise: 'I’m a Pony Express rider carrying a letter that someone wants stopped' },
  { genre: 'western', premise: 'A mysterious stranger rides into town with a coffin behind his horse' },
  { genre: 'western', premise: 'I’m a gold prospector who struck it rich and now everyone wants my claim' },
  { genre: 'western', premise: 'I’m a young deputy defending the jail from a gang coming on the noon train' },
  { genre: 'postapocalyptic', premise: 'The zombies are gone, but now we have to rebuild the town' },
  { genre: 'postapocalyptic', premise: 'I’m a courier carrying seeds across a desert that used to be Europe' },
  {
    genre: 'postapocalyptic',
    premise: 'We live on the rooftops because the streets are flooded and full of wild dogs',
  },
  { genre: 'postapocalyptic', premise: 'I’m the last person on Earth, or so I thought' },
  { genre: 'postapocalyptic', premise: 'Ten years after the fall, a caravan arrives with news of a green valley' },
  { genre: 'comedy', premise: 'The vampire in the apartment upstairs wants to borrow sugar' },
  { genre: 'comedy', premise: 'I’m a vampire who’s afraid of the dark' },
  { genre: 'comedy', premise: 'My parrot keeps repeating my secrets at family dinners' },
  { genre: 'comedy', premise: 'I’m a terrible magician hired for a child’s birthday party' },
  { genre: 'comedy', premise: 'Two grumpy neighbours start a war over a garden gnome' },
  { genre: 'comedy', premise: 'I swapped bodies with my dog this morning' },
  { genre: 'historical', premise: 'I’m a scullery maid in a Georgian country house' },
  { genre: 'historical', premise: 'I’m a stonemason building a cathedral in the 12th century' },
  { genre: 'historical', premise: 'I’m a sailor on the Titanic’s maiden voyage' },
  { genre: 'historical', premise: 'I’m a codebreaker at Bletchley Park' },
  { genre: 'historical', premise: 'I’m a young woman disguised as a man to fight in the Civil War' },
  { genre: 'historical', premise: 'I am a merchant on the Silk Road carrying spices to Samarkand' },
  { genre: 'romance', premise: 'I keep running into the same handsome stranger on the morning train' },
  { genre: 'romance', premise: 'My ex is the caterer at my best friend’s wedding' },
  {
    genre: 'romance',
    premise: 'I’m a single dad, and my daughter’s teacher keeps asking me to stay after the meeting',
  },
  { genre: 'romance', premise: 'Two strangers get snowed in at a mountain lodge over Christmas' },
  { genre: 'romance', premise: 'I write love songs for other people but I’ve never been in love' },
  {
    genre: 'thriller',
    premise: 'I’m a bank teller, and the man in front of me just slid a note saying he has a gun',
  },
  { genre: 'thriller', premise: 'I’m an air traffic controller and someone has taken over the tower' },
  { genre: 'thriller', premise: 'My husband disappeared and the police say he never existed' },
  { genre: 'thriller', premise: 'I’m a getaway driver on my last job' },
  { genre: 'thriller', premise: 'A stranger on the train knows my name and my secret' },
];

/** Written after that widening and before running it: 13 of these 30 agreed (43%) before the lexicon was widened again. */
const FRESH: GenreCorpusEntry[] = [
  { genre: 'fantasy', premise: 'I’m the youngest of three sisters and a fox in the woods offers me a bargain' },
  { genre: 'fantasy', premise: 'I have to return a stolen crown to the Goblin King before the full moon' },
  { genre: 'fantasy', premise: 'A giant tortoise carries our whole town on its back' },
  { genre: 'scifi', premise: 'I’m a delivery driver on the Moon' },
  { genre: 'scifi', premise: 'The ship’s computer just woke me up early and won’t say why' },
  { genre: 'scifi', premise: 'I’m testing a new virtual reality headset and can’t log out' },
  { genre: 'mystery', premise: 'My neighbour’s dog keeps digging up bones that aren’t animal bones' },
  {
    genre: 'mystery',
    premise: 'The fortune teller at the fair predicted my death, and then she was found strangled',
  },
  {
    genre: 'mystery',
    premise:
      'I’m a hotel receptionist and room 12 has been booked every night for ten years by someone no one has seen',
  },
  { genre: 'horror', premise: 'The new family next door never blinks' },
  { genre: 'horror', premise: 'I’m a lighthouse keeper and something climbs out of the sea every full moon' },
  { genre: 'horror', premise: 'My reflection waved at me this morning, but I didn’t' },
  { genre: 'western', premise: 'I’m a blacksmith in a town where the railroad is coming' },
  { genre: 'western', premise: 'A widow hires me to find the men who burned her farm in the Dakota Territory' },
  { genre: 'western', premise: 'I’m a horse thief with a price on my head' },
  { genre: 'postapocalyptic', premise: 'I’m one of the few people left after the sickness' },
  { genre: 'postapocalyptic', premise: 'We trade bullets for bread at the edge of the dead zone' },
  { genre: 'postapocalyptic', premise: 'I guard the last working greenhouse in the city' },
  { genre: 'comedy', premise: 'I’m a pirate captain but I get seasick' },
  { genre: 'comedy', premise: 'My rubber duck has started giving me life advice' },
  { genre: 'comedy', premise: 'I’m a ninja who keeps tripping over things' },
  { genre: 'historical', premise: 'I’m a lady-in-waiting to Anne Boleyn' },
  { genre: 'historical', premise: 'I’m a young stable boy at the court of Louis XIV' },
  { genre: 'historical', premise: 'I’m a soldier in Napoleon’s retreat from Moscow' },
  { genre: 'romance', premise: 'I’m a tour guide in Rome and keep bumping into the same tourist' },
  { genre: 'romance', premise: 'After my divorce I move to a small island and meet the ferry captain' },
  { genre: 'romance', premise: 'My brother’s best friend is back in town after ten years' },
  { genre: 'thriller', premise: 'I’m a nurse and I just realised a patient is being poisoned by a doctor' },
  { genre: 'thriller', premise: 'Our plane is hijacked over the Atlantic' },
  { genre: 'thriller', premise: 'I find a USB stick in a library book with my name on it' },
];

/**
 * A last held-out set, written by a second person (the lead) after the lexicon was done and
 * measured once before joining the corpus: 27 of 30 agreed (2026-11-27). Misses stay as labelled.
 */
const SECOND_READER: GenreCorpusEntry[] = [
  { genre: 'fantasy', premise: 'The river spirit owes me a favour and tonight I mean to collect it' },
  { genre: 'fantasy', premise: 'I am the last keeper of a library whose books rewrite themselves at midnight' },
  { genre: 'fantasy', premise: 'A talking crow leads me to a door in the hillside that was never there before' },
  { genre: 'scifi', premise: 'My colony on Mars loses contact with Earth on the day the oxygen recyclers fail' },
  { genre: 'scifi', premise: 'I wake up in a clone vat with someone else’s memories' },
  { genre: 'scifi', premise: 'The ship’s computer has started lying to the crew and only I have noticed' },
  { genre: 'mystery', premise: 'The vicar is found drowned in a dry well and I am asked to find out how' },
  { genre: 'mystery', premise: 'Someone keeps leaving anonymous notes in my mailbox predicting the town gossip' },
  {
    genre: 'mystery',
    premise: 'A priceless painting vanishes from a gallery during a power cut and every guest has an alibi',
  },
  { genre: 'horror', premise: 'The babysitting job pays triple, and the children upstairs never make a sound' },
  { genre: 'horror', premise: 'Every night at 3 a.m. my reflection stays a second too long in the mirror' },
  { genre: 'horror', premise: 'We moved into the old parsonage and the wallpaper has started to bleed' },
  { genre: 'western', premise: 'I drive a herd of cattle north to Abilene with a crew of green kids' },
  {
    genre: 'western',
    premise: 'A stagecoach robbery leaves me holding the strongbox and a wanted poster with my face',
  },
  { genre: 'western', premise: 'The railroad wants my homestead and the marshal is on their payroll' },
  {
    genre: 'postapocalyptic',
    premise: 'Since the grid went down ten years ago our town trades in batteries and seeds',
  },
  {
    genre: 'postapocalyptic',
    premise: 'I lead the last caravan across the ash plains looking for a city that still has power',
  },
  {
    genre: 'postapocalyptic',
    premise: 'The plague took almost everyone and now the survivors argue over the last pharmacy',
  },
  { genre: 'comedy', premise: 'I accidentally sign up for a competitive cheese rolling championship' },
  { genre: 'comedy', premise: 'My grandmother joins a biker gang and I have to get her home before Sunday lunch' },
  { genre: 'comedy', premise: 'I am a wedding planner and every couple this month is more ridiculous than the last' },
  { genre: 'historical', premise: 'I am a scribe in ancient Egypt copying the records of the pharaoh’s new tomb' },
  { genre: 'historical', premise: 'In 1666 I run a bakery in Pudding Lane the night the Great Fire begins' },
  { genre: 'historical', premise: 'I serve as a nurse in the Crimean War alongside Florence Nightingale' },
  { genre: 'romance', premise: 'My ex-fiancé turns out to be the best man at my sister’s wedding' },
  {
    genre: 'romance',
    premise: 'A summer job at a seaside ice cream stand and a lifeguard who will not stop smiling at me',
  },
  { genre: 'romance', premise: 'Two rival chefs are forced to share a kitchen for a charity gala' },
  { genre: 'thriller', premise: 'I witness a murder on the subway and now the killer knows where I live' },
  { genre: 'thriller', premise: 'A hacker sends me proof that the election will be rigged and then goes silent' },
  { genre: 'thriller', premise: 'I have twenty-four hours to find the bomb before it goes off in the stadium' },
];

/** The start screen's presets, labelled by what a player reads in them (Lost Civilization: an unexplained trail, so mystery). */
const PRESET_GENRES: Record<(typeof STORY_PRESETS)[number]['id'], Genre> = {
  'fantasy-quest': 'fantasy',
  'space-explorer': 'scifi',
  'detective-mystery': 'mystery',
  'lost-civilization': 'mystery',
};

const PRESETS: GenreCorpusEntry[] = STORY_PRESETS.map((preset) => ({
  premise: preset.scenario,
  genre: PRESET_GENRES[preset.id],
}));

/** Composed prompts: the mix's largest share is the genre, ties in the spec's genre order, whatever the words say. */
const MIXED: GenreCorpusEntry[] = [
  { genre: 'scifi', premise: composeRandomPrompt({ scifi: 50, comedy: 50 }) },
  { genre: 'horror', premise: composeRandomPrompt({ horror: 70, romance: 30 }) },
  { genre: 'western', premise: composeRandomPrompt({ western: 100 }) },
  { genre: 'thriller', premise: composeRandomPrompt({ mystery: 20, thriller: 45, historical: 35 }) },
  {
    genre: 'fantasy',
    premise: composeStoryPrompt('I open a bakery in Paris and fall for the florist next door', {
      fantasy: 40,
      horror: 30,
    }),
  },
  {
    genre: 'postapocalyptic',
    premise: composeStoryPrompt('A dragon guards the mountain pass', { postapocalyptic: 60, fantasy: 40 }),
  },
  { genre: 'comedy', premise: composeStoryPrompt('I’m a detective in a rainy city', { comedy: 80, mystery: 20 }) },
  { genre: 'romance', premise: composeStoryPrompt('I am a ghost haunting my old house', { romance: 55, horror: 45 }) },
];

export const GENRE_CORPUS: GenreCorpusEntry[] = [
  ...TYPED,
  ...HELD_OUT,
  ...FRESH,
  ...SECOND_READER,
  ...PRESETS,
  ...MIXED,
];
