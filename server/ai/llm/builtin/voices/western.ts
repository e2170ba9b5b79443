// The western's voice: dust and honour. Heat, horses, a town that watches, a word that is kept.
import { capital, type GenreVoice } from './types';

export const western: GenreVoice = {
  openings: [
    (o) =>
      `You ride into ${o.where} at high noon with three days of dust on your hat. ${capital(o.sound)} drifts across the street, ${o.sight}, and ${o.person} spits into the dirt and sizes you up.`,
    (o) =>
      `The heat at ${o.where} comes up off the ground in waves. ${capital(o.sight)}, and ${o.sound} carries on the dry wind. ${capital(o.person)} tips a hat your way, slow and careful.`,
    (o) =>
      `Folks say ${o.where} is a place where a man's word is all he has. You mean to find out. As your horse drinks, ${o.sight}, ${o.sound} echoes off the bluffs, and ${o.person} steps off the boardwalk.`,
    (o) =>
      `The stage drops you at ${o.where} and leaves in a hurry. Dust settles; ${o.sight}, and ${o.sound} breaks the long quiet. Of everyone in sight, only ${o.person} will look you in the eye.`,
  ],
  sights: [
    'a tumbleweed rolls across the street and nobody watches it',
    'dust devils spin up on the far ridge',
    'a wanted poster flaps loose with your likeness on it',
    'the sun glints off something metal up on the bluff',
    'a riderless horse trots past, saddle still warm',
    'curtains twitch in every window along the street',
  ],
  sounds: [
    'the jingle of spurs on the boardwalk',
    'a distant train whistle',
    'the ratchet of a hammer being cocked',
    'a piano that stops mid-tune',
    'the howl of coyotes in the hills',
    'the creak of the windmill on the ridge',
  ],
  places: [
    'the dusty main street',
    "the saloon's swinging doors",
    'the dry riverbed',
    'the railway water tower',
    'the canyon pass',
    'the abandoned mission',
  ],
  figures: [
    'a sheriff with a tarnished star',
    'a preacher with a rifle across his knees',
    'a card sharp in a velvet vest',
    "a rancher's daughter who rides better than anyone",
    'a bounty hunter with a long coat',
    'an old prospector with a map he will not show',
  ],
  omens: [
    'the noon stage is an hour late and nobody wants to say why',
    'a fresh-painted sign at the edge of town bears your initials',
    "the gang's leader rides in at sundown, they say",
    "the town's only well has turned bitter overnight",
    'the telegraph lines have been cut on both sides of town',
    'a stranger paid for your drink and left before you could thank him',
  ],
  details: [
    'The sun sits on your shoulders like a saddle, and the air smells of sage, horse and gun oil.',
    'Dust lies over everything, fine as flour, and it rises in little puffs with every step.',
    'A cracked water trough stands by the hitching rail, and the horses eye it with open longing.',
    'Heat shimmers off the tin roofs until the whole street seems to waver.',
    'The boardwalk planks are bleached silver, and every one of them complains under your boots.',
    'Far off, the mesas glow red as coals against a sky without a single cloud.',
    'A hand-lettered sign reads NO CREDIT, NO TROUBLE, and someone has crossed out the second part.',
    'Somewhere a horse stamps and blows, and a door bangs in the wind.',
  ],
  connectors: [
    'Out here, a reputation is earned one moment at a time.',
    'Your hand drifts, easy and unhurried, toward your belt.',
    'The whole street seems to hold its breath.',
    'Dust settles on the brim of your hat.',
    'A man keeps his word out here, or he keeps moving.',
    'You squint against the glare and wait.',
    'The wind picks up and carries grit into your teeth.',
    'Nobody in this town does anything by accident.',
  ],
  questions: [
    'Do you stand your ground, or ride on?',
    'Whose side are you on when the dust settles?',
    'Do you keep your word, even now?',
    'Where do you ride from here?',
  ],
  peril: [
    'A rifle barrel glints in an upstairs window and then slides out of sight.',
    'Your horse shies at a rattlesnake coiled in the shade of the trough.',
  ],
  darker: [
    'There is blood on the saloon floor, and nobody has bothered to mop it.',
    'The last man who asked those questions is buried out past the mission.',
  ],
  titleNouns: ['Dust', 'Bounty', 'Frontier', 'Sundown', 'Canyon', 'Spur'],
};
