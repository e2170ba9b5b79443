// Mystery's voice: clues, alibis, questions. Every detail is evidence; every witness hides a little.
import { capital, type GenreVoice } from './types';

export const mystery: GenreVoice = {
  openings: [
    (o) =>
      `The case begins at ${o.where}, as most of them do, with something out of place: ${o.sight}. ${capital(o.sound)} carries through the damp air, and ${o.person} is the first to pretend nothing is wrong.`,
    (o) =>
      `You notice three things on arriving at ${o.where}. First, ${o.sight}. Second, ${o.sound}. Third, ${o.person} has a story ready before anyone has asked for one.`,
    (o) =>
      `Rain has been falling on ${o.where} since noon, washing away what it can. Still, ${o.sight}, and ${o.sound} tells you someone else is awake. ${capital(o.person)} watches you take out your notebook.`,
    (o) =>
      `The note that brought you to ${o.where} was unsigned, which was the first clue. The second waits for you now: ${o.sight}, while ${o.sound} comes and goes. ${capital(o.person)} clears their throat.`,
  ],
  sights: [
    'a cigarette still smoulders in the ashtray',
    'muddy footprints lead to a door that is locked from the inside',
    'a photograph has been turned face down on the desk',
    'the clock on the mantel has stopped at a quarter past nine',
    'a glove, too small for any man, lies by the window',
    'someone has torn a single page from the ledger',
  ],
  sounds: [
    'the click of a door latch upstairs',
    'the sound of footsteps that stop when you stop',
    'a telephone ringing in an empty office',
    'the scratch of a pen behind a curtain',
    'a whistle from the street below',
    'rain drumming on a tin roof',
  ],
  places: [
    'the rain-slick alley',
    'the shuttered study',
    "the hotel's back staircase",
    "the pawnbroker's counter",
    'the station platform',
    'the dusty archive room',
  ],
  figures: [
    'a nervous clerk with ink on his cuffs',
    'a widow in a veil who watches too closely',
    'a constable who seems to know your name',
    'a newsboy with a sharp memory',
    'a gentleman whose alibi is too neat',
    'a maid who will not meet your eyes',
  ],
  omens: [
    'the same name turns up twice where it should not',
    'the letter in your pocket is not the one you put there',
    'somebody has been in your rooms and wanted you to know it',
    'the only witness has bought a ticket out of town',
    'the handwriting on the note matches your own',
    'a second theft would explain everything, and that worries you',
  ],
  details: [
    'A thin layer of dust covers everything except one drawer, which has been opened recently.',
    'The room smells of pipe tobacco and lavender, an odd pairing for a house with no smoker.',
    'Someone has wiped the window latch clean, which is more suspicious than a fingerprint.',
    'The carpet is worn in a straight line from the door to the bookcase and nowhere else.',
    'Two cups sit on the tray, one untouched, one with lipstick on the rim.',
    'A train timetable lies open, with the 10:40 underlined twice in pencil.',
    'The ashes in the grate are still warm, and among them is the corner of an envelope.',
    'Every book on the shelf is upright except one, tilted just enough to be noticed.',
  ],
  connectors: [
    'You file the detail away for later.',
    'It does not fit, and that is what interests you.',
    'Somebody is lying, and you intend to find out who.',
    'The pieces shift, but they do not yet make a picture.',
    'You make a careful note of the time.',
    'A motive starts to take shape at the back of your mind.',
    'Nothing here is an accident, you are sure of that.',
    'You have seen this trick before, though not done so neatly.',
  ],
  questions: [
    'Which clue do you follow first?',
    'Who do you question next, and what do you ask?',
    'Do you share what you have found, or keep it to yourself?',
    'What does the evidence tell you?',
  ],
  peril: [
    'A shadow passes the frosted glass of the door and does not knock.',
    'Someone has loosened the railing on the stairs you are about to climb.',
  ],
  darker: [
    'The stain on the rug has been scrubbed, but not well enough to hide that it was blood.',
    'The victim, you now suspect, saw the killer coming and let them in.',
  ],
  titleNouns: ['Ledger', 'Alibi', 'Witness', 'Key', 'Verdict', 'Clue'],
};
