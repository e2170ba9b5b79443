// Horror's voice: dread that builds. Wrong sounds, patient shadows, a house that notices you.
import { capital, type GenreVoice } from './types';

export const horror: GenreVoice = {
  openings: [
    (o) =>
      `They told you not to go to ${o.where} after dark. It is after dark. ${capital(o.sound)} starts the moment you step inside, ${o.sight}, and ${o.person} is standing exactly where no one was a second ago.`,
    (o) =>
      `The cold finds you first at ${o.where}, a cold with no draught to explain it. Then ${o.sight}, and ${o.sound} begins, soft and patient. Strangely, ${o.person} shows no surprise.`,
    (o) =>
      `From the outside, ${o.where} looked almost ordinary. Inside, ${o.sight}, and ${o.sound} seems to come from every wall at once. Somewhere behind you, ${o.person} whispers your name.`,
    (o) =>
      `The door of ${o.where} closes behind you on its own, gently, like a host. ${capital(o.sound)} drifts down from upstairs, ${o.sight}, and ${o.person} waits at the foot of the stairs.`,
  ],
  sights: [
    'the wallpaper bulges as if something breathes behind it',
    'your breath fogs though the room was warm a moment ago',
    'a handprint, small and wet, appears on the glass',
    'every portrait in the hall now faces the same way',
    'the candle flame bends toward the dark instead of away',
    'a door that was shut now stands open again',
  ],
  sounds: [
    'a lullaby hummed slightly off key',
    'the rasp of nails dragging slowly across wood',
    'the slow creak of a rocking chair nobody sits in',
    'a run of three knocks from inside the wall',
    'laughter that stops too suddenly',
    'your own name whispered from below',
  ],
  places: [
    'the cellar stairs',
    'the nursery with the shuttered windows',
    'the flooded chapel',
    'the end of the long hallway',
    'the orchard of bare black trees',
    'the attic',
  ],
  figures: [
    'a pale girl in a nightgown',
    'a caretaker with a ring of rusted keys',
    'a man whose smile is far too wide',
    'something tall that stands very still',
    'a priest who will not stop praying',
    'a dog that refuses to come closer',
  ],
  omens: [
    'the scratches on the door make a date: tonight',
    'the house seems larger on the inside than it did from the road',
    'your reflection is a heartbeat late',
    'the radio tunes itself to a station that plays only breathing',
    'the roots of the bare trees have moved closer to the house',
    'the photographs all show one more person than there was',
  ],
  details: [
    'The air is thick with damp plaster and something sweeter underneath that you would rather not name.',
    'The floorboards give a little too much underfoot, as if the house were deciding whether to hold you.',
    'Every mirror has been covered with a sheet, except one, and that one is facing the wall.',
    'The silence here has a texture, like felt pressed against your ears.',
    'Dust lies thick on everything except a path of small, bare footprints.',
    'A child has drawn on the wallpaper in crayon: the same house, again and again, with a figure in every window.',
    'Your torch flickers whenever you point it at the corner, and steadies when you look away.',
    'The cold here gathers in pockets, and you walk through one that feels like a held breath.',
  ],
  connectors: [
    'You tell yourself it was nothing.',
    'The dark does not move, and somehow that is worse.',
    'Something in the house has noticed you.',
    'The silence afterwards goes on a little too long.',
    'You do not look behind you, and you do not know why.',
    'Every instinct you have says leave.',
    'The house settles around you like something getting comfortable.',
    'You count your breaths to keep them steady.',
  ],
  questions: [
    'Do you go toward the sound, or away from it?',
    'Do you dare to look?',
    'Will you stay until morning, or run while the door still opens?',
    'What do you do, knowing you are not alone?',
  ],
  peril: [
    'Something heavy shifts upstairs, directly above where you are standing.',
    'The only door out is closing, very slowly, on its own.',
  ],
  darker: [
    'Under the floorboards, you glimpse bones too small to be an animal.',
    'The wet handprint on the glass is red now, and it is spreading.',
  ],
  titleNouns: ['Hollow', 'Whisper', 'Cellar', 'Lullaby', 'Veil', 'Rot'],
};
