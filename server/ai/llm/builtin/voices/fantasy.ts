// Fantasy's voice: wonder first. Old roads, living magic, beasts that talk, oaths that bind.
import { capital, type GenreVoice } from './types';

export const fantasy: GenreVoice = {
  openings: [
    (o) =>
      `The tale begins at ${o.where}, where ${o.sight}. ${capital(o.sound)} rolls over the hills like a promise, and ${o.person} looks at you as if you were expected.`,
    (o) =>
      `Old magic wakes around ${o.where} the moment you arrive: ${o.sight}, and ${o.sound} answers from somewhere beyond the trees. Word is that ${o.person} has been waiting for someone like you.`,
    (o) =>
      `Every song about ${o.where} forgot to mention this: ${o.sight}. ${capital(o.sound)} drifts on the wind, and ${o.person} bows as you approach.`,
    (o) =>
      `You come to ${o.where} with dust on your cloak and a map that no longer agrees with the land. Then ${o.sight}, ${o.sound} rings out, and ${o.person} steps into your path.`,
  ],
  sights: [
    'lanterns flare blue along the old stones',
    'a ribbon of silver mist curls around your boots',
    'runes you did not notice before begin to glow',
    'the shadows of the trees lean toward you',
    'a hawk with golden eyes settles on a branch to watch',
    'petals fall upward, as if the air has forgotten its rules',
  ],
  sounds: [
    'the toll of a distant bell',
    'the beat of great wings',
    'a harp string plucked by no hand',
    'the clatter of hooves on cobbles',
    'a chant in a language older than the hills',
    'the creak of an ancient gate',
  ],
  places: [
    'the ruined watchtower',
    'the moss-covered bridge',
    "the king's road",
    'the edge of the Whispering Wood',
    'the old shrine',
    'the silent courtyard',
  ],
  figures: [
    'a hooded ferryman',
    'an old woman with a lantern of green fire',
    'a knight whose armour bears no crest',
    'a fox that walks like a man',
    'a child carrying a sealed letter',
    'a wizard with ink-stained fingers',
  ],
  omens: [
    'the wind carries the smell of smoke from the north',
    'the ring on your finger grows warm',
    'a crown-shaped star rises where no star should be',
    'every bird in the valley falls silent at once',
    'the map in your pack has redrawn itself',
    'a crack runs across the moon like a seam',
  ],
  details: [
    'The air smells of pine resin and rain, and something older beneath it, like the inside of a spellbook.',
    'Moss grows thick on every stone here, and in places it has been shaped into letters no one alive can read.',
    'Sparks of pale light drift between the branches, and they scatter like minnows when you breathe on them.',
    'The grass is silver where the moonlight touches it and warm where it does not.',
    'Somewhere underfoot water runs through hollow stone, singing to itself in a minor key.',
    'An old banner hangs in tatters from a spear, its emblem a dragon eating its own tail.',
    'The trees here are older than any kingdom, and they creak politely when you pass.',
    'A faint taste of honey and iron lingers in the air, the way it does before a great spell.',
  ],
  connectors: [
    'The old stories were true, then.',
    'Magic hums at the edge of hearing.',
    'The land itself seems to be listening.',
    'Somewhere, a prophecy turns a page.',
    'Wonder and caution settle on you in equal parts.',
    'The wind tugs at your cloak like an impatient child.',
    'The stars overhead are not quite the ones you know.',
    'You feel the weight of a road that is only beginning.',
  ],
  questions: [
    'Which path does your quest take you down now?',
    'Do you trust the magic, or your own blade?',
    'What will you offer, if the old powers ask a price?',
    'Where does your road lead from here?',
  ],
  peril: [
    'A wolf howls somewhere close, and it does not sound hungry so much as certain.',
    'The bridge ahead groans under its own weight, and there is a long drop beneath it.',
  ],
  darker: [
    'The stones of the shrine are stained dark, and the stain is not old.',
    'Ravens have gathered on the battlefield to the west, and the cause is plain enough.',
  ],
  titleNouns: ['Crown', 'Oath', 'Ember', 'Wyrm', 'Tower', 'Rune'],
};
