// The thriller's voice: pace and stakes. Clocks, surveillance, handlers, and a plan going wrong.
import { capital, type GenreVoice } from './types';

export const thriller: GenreVoice = {
  openings: [
    (o) =>
      `Zero hour. You reach ${o.where} with ninety seconds to spare and a phone that will not stop buzzing. ${capital(o.sight)}, ${o.sound} cuts through the crowd noise, and ${o.person} falls into step beside you without a word.`,
    (o) =>
      `The briefing was short: get into ${o.where}, find ${o.person}, get out. It goes wrong almost at once. ${capital(o.sight)}, and ${o.sound} tells you someone else knows you are here.`,
    (o) =>
      `Nobody at ${o.where} knows your real name, and you intend to keep it that way. Then ${o.sight}, ${o.sound} starts up behind you, and ${o.person} mouths a single word: run.`,
    (o) =>
      `The clock on your phone reads 23:58 as you slip into ${o.where}. ${capital(o.sound)} fades in, ${o.sight}, and ${o.person} slides a folded note across the table toward you.`,
  ],
  sights: [
    'a red dot dances for a moment on the wall beside you',
    'two men in grey suits turn away a little too quickly',
    'a phone on the table lights up with a message meant for you',
    'the security camera swivels to follow you',
    'a van with no plates idles across the street',
    'the file you need has been shredded, all but one page',
  ],
  sounds: [
    'the chirp of a burner phone',
    'the screech of tyres two streets away',
    "the click of a pistol's safety",
    'a helicopter circling low',
    'a countdown beeping somewhere out of sight',
    'an earpiece crackling with a voice you trust less every minute',
  ],
  places: [
    'the underground car park',
    'the embassy service corridor',
    'the rooftop of the parking garage',
    'the crowded metro carriage',
    'the safe house kitchen',
    'the freight yard',
  ],
  figures: [
    'a handler who answers questions with questions',
    'a courier with a chained briefcase',
    'a journalist who knows too much',
    'a hacker living on energy drinks and paranoia',
    'a diplomat with two passports',
    'a woman who officially vanished last spring',
  ],
  omens: [
    'your cover name has just appeared on the evening news',
    'the extraction point has been moved without explanation',
    'the mole is someone you spoke to today',
    'the money trail leads straight back to your own agency',
    'you have eleven minutes before the doors lock down',
    'the person who hired you has stopped answering',
  ],
  details: [
    'Fluorescent light buzzes overhead, flat and merciless, and the air smells of wet concrete and exhaust.',
    'Every reflective surface is a chance to check who is behind you, and you take all of them.',
    'Your phone shows two bars of signal and nine per cent battery.',
    'The exits are where the floor plan said they would be, which is the first thing today to go to plan.',
    'A newspaper on the seat carries a photograph that is almost, but not quite, of you.',
    'Rain streaks the windows and turns the streetlights into smeared stars.',
    'The crowd moves around you like water, and any one of them could be watching.',
    'Someone has wiped this room down recently; the whole place smells of bleach.',
  ],
  connectors: [
    'The clock is running.',
    'You have seconds, not minutes.',
    'Your earpiece goes quiet at the worst possible moment.',
    'Trust no one; you have been told that enough times.',
    'Every way out is a question with a deadline.',
    'Somebody has made a mistake, and you hope it was not you.',
    'Your cover holds, for now.',
    'The plan is already out of date.',
  ],
  questions: [
    'Do you run, or hold your nerve?',
    'Who do you call, with one call left?',
    'Do you take the exit, or the risk?',
    'What is your next move, with the clock running?',
  ],
  peril: ['A car mounts the kerb behind you and keeps coming.', 'Your phone lights up with a message: WE SEE YOU.'],
  darker: [
    'The last agent on this job was pulled from the river a week ago.',
    'There is a body in the boot of the car, and your fingerprints are on the keys.',
  ],
  titleNouns: ['Protocol', 'Cipher', 'Extraction', 'Handler', 'Countdown', 'Dossier'],
};
