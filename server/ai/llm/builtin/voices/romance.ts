// Romance's voice: people drawn together. Glances, nerves, warmth, and the other person's replies.
import { capital, type GenreVoice } from './types';

export const romance: GenreVoice = {
  openings: [
    (o) =>
      `Your first morning at ${o.where} is meant to be about work, not about ${o.person}. And yet ${o.sight}, ${o.sound} drifts in through the open door, and you catch yourself smiling for no reason at all.`,
    (o) =>
      `There is a particular kind of light at ${o.where} just after dawn, and it suits ${o.person} far too well. ${capital(o.sight)}; ${o.sound} fills the small silence between you, and neither of you quite knows where to look.`,
    (o) =>
      `Everyone warned you that ${o.where} would change your life. Nobody mentioned ${o.person}. ${capital(o.sound)} plays somewhere nearby, ${o.sight}, and your heart gives a small, inconvenient skip.`,
    (o) =>
      `You arrive at ${o.where} with a box of belongings and a head full of plans. Then ${o.sight}, ${o.sound} rises, and ${o.person} looks up and smiles, and the plans go quietly out of the window.`,
  ],
  sights: [
    'candlelight catches in a pair of familiar eyes',
    'a single rose has been left on the bench beside you',
    'your hands brush and neither of you pulls away',
    'the lights of the city come on one by one',
    'a note in careful handwriting peeks from your coat pocket',
    'the wind steals a ribbon and carries it toward you',
  ],
  sounds: [
    'a slow waltz drifting through an open window',
    'laughter you would know anywhere',
    'the patter of rain on an umbrella',
    'a violin tuning before the dance',
    'the peal of church bells from across the bay',
    'a voice saying your name softly',
  ],
  places: [
    'the rose garden',
    'the crowded ballroom',
    'the little bookshop on the corner',
    'the rain-soaked train platform',
    'the rooftop terrace',
    'the seaside promenade',
  ],
  figures: [
    'an old flame you hoped never to see again',
    'a stranger with a warm smile and a rumpled coat',
    'your suddenly tongue-tied best friend',
    'a matchmaking aunt with a plan',
    'a rival in an immaculate suit',
    'a musician who keeps playing your song',
  ],
  omens: [
    'the letter is signed with only an initial',
    'the last train leaves in ten minutes',
    'someone has told them how you really feel',
    'the ring in the shop window is gone',
    'tomorrow one of you will be leaving the city',
    'your rival has asked the question you meant to ask',
  ],
  details: [
    'The air smells of fresh coffee and warm bread, and somewhere a radio is playing something old and sweet.',
    'Your cheeks are warm, and you are fairly sure it is not the weather.',
    'A glance lingers a moment longer than it should, and then both of you look away at once.',
    'There is flour on your sleeve and a smile on your face, and you cannot account for either.',
    'Their laugh is lower than you expected, and you find yourself wanting to hear it again.',
    'The evening is soft and gold, the kind that makes people say things they have been saving.',
    'You notice small things: a chipped cup kept for sentiment, a pencil tucked behind one ear.',
    'Someone has left the window open, and the scent of lilacs drifts in on the breeze.',
  ],
  connectors: [
    'Your heart, unhelpfully, skips.',
    'You try very hard to look as if you were not watching.',
    'A shy smile answers yours.',
    'You wonder if they felt it too.',
    'It is ridiculous how much one glance can say.',
    'You find your hands do not know what to do with themselves.',
    'Something warm settles in your chest and stays.',
    'The moment is small, and you know you will remember it.',
  ],
  questions: [
    'Do you say what you feel, or wait a little longer?',
    'What do you say to them?',
    'Do you take their hand?',
    'Will you stay, or let the moment pass?',
  ],
  peril: [
    'A sharp word from the rival carries across the room, and heads turn toward you.',
    'The storm outside is getting worse, and the last bus has already gone.',
  ],
  darker: [
    'An old bruise of a memory aches: the last time you trusted someone this much, it ended badly.',
    'There is a secret in their past, and it has just walked through the door.',
  ],
  titleNouns: ['Promise', 'Waltz', 'Letter', 'Heart', 'Garden', 'Vow'],
};
