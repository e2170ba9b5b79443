// Comedy's voice: absurd details, bathos and timing. Grand build-ups that land on something small.
import { capital, type GenreVoice } from './types';

export const comedy: GenreVoice = {
  openings: [
    (o) =>
      `Your big day at ${o.where} begins, as all great days do, with a small disaster: ${o.sight}. ${capital(o.sound)} rises in the background, and ${o.person} gives you a thumbs-up that inspires no confidence whatsoever.`,
    (o) =>
      `You had a plan for ${o.where}. It was a good plan. It had bullet points. Then ${o.sight}, ${o.sound} started up, and ${o.person} asked whether you were the one in charge.`,
    (o) =>
      `Nobody at ${o.where} remembers who invited you, but everyone agrees you should sort this out. ${capital(o.sight)}, ${o.sound} begins on cue, and ${o.person} is already filming it.`,
    (o) =>
      `Historians will one day call it the Incident at ${titleCase(o.where)}. For now, ${o.sight}, ${o.sound} fills the air, and ${o.person} hands you a clipboard and runs.`,
  ],
  sights: [
    'a pigeon walks in, looks at you, and walks out in disgust',
    "someone's toupee is sliding gently toward disaster",
    'a banner reading CONGRATULATIONS KEVIN unfurls for no reason',
    'the sprinkler system starts up with perfect comic timing',
    'a goat in a tiny hat wanders through the crowd',
    "your shoelace has somehow tied itself to a stranger's",
  ],
  sounds: [
    'a kazoo fanfare',
    'a chorus of car alarms',
    'the squeak of a rubber chicken',
    'polite but desperate applause',
    'a tuba playing slightly the wrong song',
    'someone shouting "Not again!" in the distance',
  ],
  places: [
    'the overcrowded office kitchen',
    "the town fair's pie tent",
    'the wrong wedding reception',
    'the back of a very small car',
    'the museum gift shop',
    'the community theatre stage',
  ],
  figures: [
    'a mayor with a suspiciously large medal',
    'an accountant dressed as a lobster',
    'a very serious mime',
    'a grandmother on rollerblades',
    'a magician whose rabbit has unionised',
    'a delivery man with a cake nobody ordered',
  ],
  omens: [
    'the caterers have mistaken you for the guest of honour',
    'somebody has put your face on the raffle prize',
    'the goat has eaten the only copy of the speech',
    'the fire alarm test is scheduled for exactly now',
    'your mother is calling, and she sounds like she knows',
    'the mime is, unmistakably, following you',
  ],
  details: [
    'The room smells of burnt toast and ambition, mostly toast.',
    'A laminated sign says PLEASE DO NOT TOUCH THE SWAN, and there is no swan, which raises questions.',
    'Someone has labelled every item in the fridge, including a single grape, which is marked PROPERTY OF DEREK.',
    'A motivational poster of a kitten on a branch has slid sideways, so the kitten now appears to be lying down.',
    'The carpet is a pattern best described as confident, and it clashes with everything including the weather.',
    'Somewhere, a photocopier has jammed with the dignified groan of an old man sitting down.',
    'The fire door is clearly marked, clearly locked, and clearly decorated with bunting.',
    'A buffet table offers forty kinds of cheese and one cracker, guarded fiercely by a small child.',
  ],
  connectors: [
    'Nobody claps.',
    'This is fine, you tell yourself, in the voice of someone for whom it is not fine.',
    'Somewhere, a single trombone slides down a scale.',
    'You consider, briefly and sincerely, faking your own disappearance.',
    'It could be worse, and you suspect it is about to be.',
    'A passing waiter offers you a prawn, as if that helps.',
    'Your dignity packs a small bag and leaves without saying goodbye.',
    'The universe, clearly, has a sense of humour, and it is not a kind one.',
  ],
  questions: [
    'Do you style it out, or run for the nearest exit?',
    'How do you make this even slightly less embarrassing?',
    'Do you blame the goat?',
    'Whose idea was this, and can you make it theirs?',
  ],
  peril: [
    'The stepladder you are relying on has a handwritten sign saying OH NO.',
    'The cake is leaning, and the cake is three tiers tall.',
  ],
  darker: [
    'The magician insists nobody has ever actually died during the saw trick, which is not reassuring.',
    'Your boss has started referring to you in the past tense.',
  ],
  titleNouns: ['Mix-Up', 'Fiasco', 'Caper', 'Kerfuffle', 'Hullabaloo', 'Blunder'],
};

/** "the night market" -> "the Night Market", for the mock-grand name of an incident. */
function titleCase(phrase: string): string {
  return phrase.replace(/\b(?!the\b|of\b|a\b|in\b)([a-z])/g, (letter) => letter.toUpperCase());
}
