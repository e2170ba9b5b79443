// Player actions for the offline narrator's tests and bench: how people actually type (adverbs
// anywhere, prepositional phrases, pronouns, two clauses, questions, quoted speech, names, one
// word, sixty words, imperatives, third person, typos and lower case), each with what a reader
// of English would say its main clause's verb, object and destination are where it matters.
// Fields left out are not checked; '' means "none".

export interface ActionExpectation {
  verb?: string;
  object?: string;
  objectHead?: string;
  destination?: string;
  adverbs?: string[];
  /** The restated action (ActionReading.clause). */
  clause?: string;
  /** How many clauses. */
  clauses?: number;
  question?: boolean;
  speech?: string | null;
  names?: string[];
  /** Things that must be among ActionReading.things. */
  things?: string[];
}

export interface ActionCase {
  action: string;
  kind:
    | 'adverb'
    | 'preposition'
    | 'pronoun'
    | 'two-clauses'
    | 'question'
    | 'speech'
    | 'name'
    | 'short'
    | 'long'
    | 'imperative'
    | 'third-person'
    | 'sloppy';
  expect: ActionExpectation;
}

const LONG_1 =
  'I wait until the bells of the cathedral have finished ringing and the last of the pilgrims have gone inside, ' +
  'then I cross the square as quietly as I can, keeping to the shadows beneath the arcades, and when I reach the ' +
  'side door I press my ear against the wood and listen for the voices of the monks who are supposed to be at prayer.';
const LONG_2 =
  'Slowly and deliberately I unfold the old map across the table in the captain’s cabin, pin its curling corners with the brass instruments and the half-empty bottle of rum, and trace the ' +
  'route we took through the reef with my finger while the storm batters the hull, the timbers groan around us ' +
  'and the lantern swings wildly above us on its chain.';
const LONG_3 =
  'I tell the merchant that I have travelled for nine days across the desert with nothing but a skin of water and ' +
  'a letter from his brother, that the letter is sealed with wax the colour of blood, and that I will hand it over ' +
  'only when he tells me where the caravan went after it left the oasis at the edge of the salt flats.';

export const LONG_ACTIONS = [LONG_1, LONG_2, LONG_3];

export const ACTION_CORPUS: ActionCase[] = [
  // The examples.
  {
    action: 'I look around carefully.',
    kind: 'adverb',
    expect: { verb: 'look around', object: '', adverbs: ['carefully'], clause: 'you look around carefully' },
  },
  {
    action: 'I quietly slip the letter into my coat and walk towards the old church.',
    kind: 'two-clauses',
    expect: {
      clauses: 2,
      verb: 'walk',
      object: '',
      destination: 'towards the old church',
      things: ['letter', 'coat', 'church'],
    },
  },
  // Adverbs at the start, in the middle and at the end.
  {
    action: 'Carefully, I open the door.',
    kind: 'adverb',
    expect: { verb: 'open', object: 'the door', adverbs: ['carefully'] },
  },
  {
    action: 'Quietly open my pack',
    kind: 'adverb',
    expect: { verb: 'open', object: 'your pack', adverbs: ['quietly'], clause: 'you quietly open your pack' },
  },
  {
    action: 'I slowly draw my sword.',
    kind: 'adverb',
    expect: { verb: 'draw', object: 'your sword', adverbs: ['slowly'] },
  },
  {
    action: 'I read the inscription slowly',
    kind: 'adverb',
    expect: { verb: 'read', object: 'the inscription', adverbs: ['slowly'] },
  },
  { action: 'I walk away quickly', kind: 'adverb', expect: { verb: 'walk away', object: '', adverbs: ['quickly'] } },
  {
    action: 'Cautiously I step onto the ice',
    kind: 'adverb',
    expect: { verb: 'step', object: '', destination: 'onto the ice', adverbs: ['cautiously'] },
  },
  {
    action: 'I gently lift the baby bird from the nest',
    kind: 'adverb',
    expect: { verb: 'lift', object: 'the baby bird', destination: 'from the nest', adverbs: ['gently'] },
  },
  { action: 'I listen carefully', kind: 'adverb', expect: { verb: 'listen', object: '', adverbs: ['carefully'] } },
  {
    action: 'Silently, I follow the footprints',
    kind: 'adverb',
    expect: { verb: 'follow', object: 'the footprints', adverbs: ['silently'] },
  },
  {
    action: 'I knock loudly on the door',
    kind: 'adverb',
    expect: { verb: 'knock', object: '', destination: 'on the door', adverbs: ['loudly'] },
  },
  {
    action: 'I search the room thoroughly',
    kind: 'adverb',
    expect: { verb: 'search', object: 'the room', adverbs: ['thoroughly'] },
  },
  {
    action: 'I smile nervously at the guard',
    kind: 'adverb',
    expect: { verb: 'smile', object: '', destination: 'at the guard', adverbs: ['nervously'] },
  },
  {
    action: 'Desperately I claw at the rocks',
    kind: 'adverb',
    expect: { verb: 'claw', destination: 'at the rocks', adverbs: ['desperately'] },
  },
  // Prepositional phrases: destinations and instruments stay out of the object.
  {
    action: 'I slip the letter into my coat',
    kind: 'preposition',
    expect: { verb: 'slip', object: 'the letter', destination: 'into your coat' },
  },
  {
    action: 'I walk towards the church',
    kind: 'preposition',
    expect: { verb: 'walk', object: '', destination: 'towards the church', clause: 'you walk towards the church' },
  },
  {
    action: 'I cut the rope with my knife',
    kind: 'preposition',
    expect: { verb: 'cut', object: 'the rope', destination: 'with your knife' },
  },
  {
    action: 'I put the gem on the altar',
    kind: 'preposition',
    expect: { verb: 'put', object: 'the gem', destination: 'on the altar' },
  },
  {
    action: 'I throw the torch into the pit',
    kind: 'preposition',
    expect: { verb: 'throw', object: 'the torch', destination: 'into the pit' },
  },
  { action: 'I climb up the ladder to the loft', kind: 'preposition', expect: { object: '' } },
  {
    action: 'I hide behind the barrel while the guard passes',
    kind: 'preposition',
    expect: { verb: 'hide', object: '', destination: 'behind the barrel' },
  },
  {
    action: 'I light a ring of candles near the building',
    kind: 'preposition',
    expect: { verb: 'light', object: 'a ring of candles', objectHead: 'ring', destination: 'near the building' },
  },
  {
    action: 'I pour the wine from the jug into two cups',
    kind: 'preposition',
    expect: { verb: 'pour', object: 'the wine', destination: 'from the jug' },
  },
  {
    action: 'get out of the cave',
    kind: 'preposition',
    expect: { verb: 'get', object: '', destination: 'out of the cave' },
  },
  { action: 'I go back to the inn', kind: 'preposition', expect: { verb: 'go back', destination: 'to the inn' } },
  {
    action: 'I sit by the fire and warm my hands',
    kind: 'preposition',
    expect: { clauses: 2, verb: 'warm', object: 'your hands' },
  },
  {
    action: 'I kneel beside the well and drink',
    kind: 'preposition',
    expect: { clauses: 2, verb: 'drink', object: '' },
  },
  {
    action: 'I row the boat across the lake',
    kind: 'preposition',
    expect: { verb: 'row', object: 'the boat', destination: 'across the lake' },
  },
  {
    action: 'I lean against the wall',
    kind: 'preposition',
    expect: { verb: 'lean', object: '', destination: 'against the wall' },
  },
  // Pronouns.
  { action: 'I pick it up', kind: 'pronoun', expect: { verb: 'pick up', object: 'it' } },
  {
    action: 'I follow her into the alley',
    kind: 'pronoun',
    expect: { verb: 'follow', object: '', destination: 'into the alley' },
  },
  {
    action: 'I give him the coin',
    kind: 'pronoun',
    expect: { verb: 'give', object: 'the coin', destination: 'to him' },
  },
  { action: 'I tell them my name', kind: 'pronoun', expect: { verb: 'tell', object: 'your name' } },
  {
    action: 'I hide myself under the bed',
    kind: 'pronoun',
    expect: { verb: 'hide', object: '', destination: 'under the bed', clause: 'you hide yourself under the bed' },
  },
  {
    action: 'We set up camp by the river',
    kind: 'pronoun',
    expect: { verb: 'set up', object: 'camp', destination: 'by the river', clause: 'you set up camp by the river' },
  },
  {
    action: 'I hand her my sword',
    kind: 'pronoun',
    expect: { verb: 'hand', object: 'your sword', destination: 'to her' },
  },
  {
    action: 'I ask her to come with me',
    kind: 'pronoun',
    expect: { verb: 'ask', object: '', clause: 'you ask her to come with you' },
  },
  {
    action: "I'm going to the market",
    kind: 'pronoun',
    expect: { verb: 'go', destination: 'to the market', clause: "you're going to the market" },
  },
  { action: 'I am hungry', kind: 'pronoun', expect: { verb: 'be', object: '', clause: 'you are hungry' } },
  { action: 'I was never here', kind: 'pronoun', expect: { clause: 'you were never here' } },
  { action: 'This is mine', kind: 'pronoun', expect: { clause: 'this is yours' } },
  { action: 'I search everything', kind: 'pronoun', expect: { verb: 'search', object: 'everything' } },
  // Two clauses and more.
  {
    action: 'I pick up the silver key and run',
    kind: 'two-clauses',
    expect: { clauses: 2, verb: 'run', object: '', things: ['key'] },
  },
  {
    action: 'I carefully pick the lock, then slip inside.',
    kind: 'two-clauses',
    expect: { clauses: 2, verb: 'slip inside' },
  },
  {
    action: 'I draw my sword, step forward and shout',
    kind: 'two-clauses',
    expect: { clauses: 3, verb: 'shout', clause: 'you draw your sword, step forward and shout' },
  },
  {
    action: 'I open the door and then I step inside',
    kind: 'two-clauses',
    expect: { clauses: 2, verb: 'step inside' },
  },
  { action: 'I open the door. Then I step inside.', kind: 'two-clauses', expect: { clauses: 2, verb: 'step inside' } },
  {
    action: 'I grab the sword and shield',
    kind: 'two-clauses',
    expect: { clauses: 1, verb: 'grab', object: 'the sword and shield' },
  },
  { action: 'I take the bread and the cheese and leave', kind: 'two-clauses', expect: { verb: 'leave' } },
  { action: 'I mount my horse and ride north', kind: 'two-clauses', expect: { clauses: 2, verb: 'ride north' } },
  { action: 'I drop the lantern; I run for the stairs', kind: 'two-clauses', expect: { clauses: 2, verb: 'run' } },
  {
    action: 'I bow to the queen but say nothing',
    kind: 'two-clauses',
    expect: { clauses: 2, verb: 'say', object: 'nothing' },
  },
  // Questions.
  {
    action: 'Where is the key?',
    kind: 'question',
    expect: { question: true, verb: 'ask', object: '', things: ['key'] },
  },
  {
    action: 'I ask the guard why the gate is shut',
    kind: 'question',
    expect: { question: true, verb: 'ask', object: 'the guard', destination: '' },
  },
  { action: 'What do I see?', kind: 'question', expect: { question: true, verb: 'ask' } },
  { action: 'Can I climb the wall?', kind: 'question', expect: { question: true } },
  {
    action: 'I ask Mara where she was last night',
    kind: 'question',
    expect: { question: true, verb: 'ask', object: 'Mara', names: ['Mara'] },
  },
  {
    action: 'I wonder who left the door open',
    kind: 'question',
    expect: { question: true, verb: 'wonder', object: '' },
  },
  { action: 'Who are you?', kind: 'question', expect: { question: true } },
  { action: 'is anyone there?', kind: 'question', expect: { question: true } },
  // Quoted speech: never turned into the second person, never an object.
  {
    action: 'I say "hello" to Mara',
    kind: 'speech',
    expect: { verb: 'say', object: '', destination: 'to Mara', speech: 'hello', names: ['Mara'] },
  },
  {
    action: '"Who goes there?"',
    kind: 'speech',
    expect: { verb: 'say', speech: 'Who goes there?', question: true, clause: 'you say, "Who goes there?"' },
  },
  {
    action: '"I am not afraid of you," I tell the dragon.',
    kind: 'speech',
    expect: { verb: 'tell', object: 'the dragon', speech: 'I am not afraid of you' },
  },
  {
    action: 'I whisper "my name is Ash" to the stranger',
    kind: 'speech',
    expect: { verb: 'whisper', object: '', destination: 'to the stranger', speech: 'my name is Ash' },
  },
  { action: 'I shout “Run!” and flee', kind: 'speech', expect: { clauses: 2, verb: 'flee', speech: 'Run!' } },
  {
    action: '"Give me the map, or I will burn it."',
    kind: 'speech',
    expect: { verb: 'say', speech: 'Give me the map, or I will burn it.' },
  },
  {
    action: 'I say to the innkeeper: "Where can I find a room?"',
    kind: 'speech',
    expect: { verb: 'say', speech: 'Where can I find a room?', question: true },
  },
  {
    action: '"Hello?" I call into the darkness',
    kind: 'speech',
    expect: { verb: 'call', destination: 'into the darkness', question: true },
  },
  // Names.
  {
    action: 'I greet Mara warmly',
    kind: 'name',
    expect: { verb: 'greet', object: 'Mara', objectHead: 'Mara', adverbs: ['warmly'], names: ['Mara'] },
  },
  {
    action: 'I hand Mara the letter',
    kind: 'name',
    expect: { verb: 'hand', object: 'the letter', destination: 'to Mara', names: ['Mara'] },
  },
  {
    action: 'I take the train to Paris',
    kind: 'name',
    expect: { verb: 'take', object: 'the train', destination: 'to Paris', names: ['Paris'] },
  },
  {
    action: 'I enter the Whispering Woods with Old Tom',
    kind: 'name',
    expect: { verb: 'enter', names: ['Whispering Woods', 'Old Tom'] },
  },
  { action: "I steal Captain Reyes's pistol", kind: 'name', expect: { verb: 'steal', objectHead: 'pistol' } },
  {
    action: 'Mara and I search the cellar',
    kind: 'name',
    expect: { verb: 'search', object: 'the cellar', names: ['Mara'] },
  },
  {
    action: 'I ride to Fort Laramie with Jed',
    kind: 'name',
    expect: { verb: 'ride', destination: 'to Fort Laramie', names: ['Fort Laramie', 'Jed'] },
  },
  { action: 'I salute General Hale', kind: 'name', expect: { verb: 'salute', object: 'General Hale' } },
  // Very short.
  { action: 'run', kind: 'short', expect: { verb: 'run', object: '', clause: 'you run' } },
  { action: 'wait', kind: 'short', expect: { verb: 'wait', object: '', clause: 'you wait' } },
  { action: 'look', kind: 'short', expect: { verb: 'look', object: '', clause: 'you look' } },
  { action: 'Run!', kind: 'short', expect: { verb: 'run', object: '', clause: 'you run' } },
  { action: 'hide', kind: 'short', expect: { verb: 'hide', clause: 'you hide' } },
  { action: 'sleep.', kind: 'short', expect: { verb: 'sleep', clause: 'you sleep' } },
  { action: 'look around', kind: 'short', expect: { verb: 'look around', object: '', clause: 'you look around' } },
  { action: 'attack', kind: 'short', expect: { verb: 'attack', clause: 'you attack' } },
  // Very long (60+ words).
  { action: LONG_1, kind: 'long', expect: {} },
  {
    action: LONG_2,
    kind: 'long',
    expect: {
      clauses: 2,
      verb: 'pin',
      object: 'its curling corners',
      destination: 'with the brass instruments and the half-empty bottle of rum',
    },
  },
  { action: LONG_3, kind: 'long', expect: { verb: 'tell', object: 'the merchant' } },
  // Imperative.
  {
    action: 'open the door',
    kind: 'imperative',
    expect: { verb: 'open', object: 'the door', clause: 'you open the door' },
  },
  {
    action: 'Search the body for clues',
    kind: 'imperative',
    expect: { verb: 'search', object: 'the body', destination: '' },
  },
  { action: 'pick the key up', kind: 'imperative', expect: { verb: 'pick up', object: 'the key' } },
  {
    action: 'Light the lantern',
    kind: 'imperative',
    expect: { verb: 'light', object: 'the lantern', clause: 'you light the lantern' },
  },
  {
    action: 'Talk to the bartender about the stranger',
    kind: 'imperative',
    expect: { verb: 'talk', destination: 'to the bartender' },
  },
  {
    action: 'With a sigh, sit down.',
    kind: 'imperative',
    expect: { verb: 'sit down', clause: 'with a sigh, you sit down' },
  },
  { action: 'Go north', kind: 'imperative', expect: { verb: 'go north', clause: 'you go north' } },
  { action: 'fire the cannons!', kind: 'imperative', expect: { verb: 'fire', object: 'the cannons' } },
  { action: 'Try to open the safe', kind: 'imperative', expect: { verb: 'try to open', object: 'the safe' } },
  // Third person: "she"/"he" with no "I" is the player's character, told from outside.
  {
    action: 'She opens the chest with the knife',
    kind: 'third-person',
    expect: {
      verb: 'open',
      object: 'the chest',
      destination: 'with the knife',
      clause: 'you open the chest with the knife',
    },
  },
  {
    action: 'He draws his pistol and fires at the bandit',
    kind: 'third-person',
    expect: {
      clauses: 2,
      verb: 'fire',
      destination: 'at the bandit',
      clause: 'you draw your pistol and fire at the bandit',
    },
  },
  {
    action: 'She is hiding in the barn',
    kind: 'third-person',
    expect: { verb: 'hide', destination: 'in the barn', clause: 'you are hiding in the barn' },
  },
  { action: 'She smiles at me', kind: 'third-person', expect: { clause: 'she smiles at you' } },
  {
    action: 'Mara opens the door',
    kind: 'third-person',
    expect: { verb: 'open', object: 'the door', names: ['Mara'] },
  },
  { action: 'The guard falls asleep', kind: 'third-person', expect: { object: '' } },
  // Typos, lower case, sloppy typing.
  {
    action: 'i grab teh sword and attack the goblin',
    kind: 'sloppy',
    expect: { clauses: 2, verb: 'attack', object: 'the goblin', clause: 'you grab teh sword and attack the goblin' },
  },
  { action: 'i look arround', kind: 'sloppy', expect: { clause: 'you look arround' } },
  { action: 'go 2 the tavern', kind: 'sloppy', expect: { verb: 'go' } },
  { action: 'I GO NORTH', kind: 'sloppy', expect: { clause: 'you GO NORTH' } },
  { action: 'i dont trust him', kind: 'sloppy', expect: { clause: 'you dont trust him' } },
  { action: 'i open the chest.....', kind: 'sloppy', expect: { verb: 'open', object: 'the chest' } },
  {
    action: '   I   open   the    window   ',
    kind: 'sloppy',
    expect: { verb: 'open', object: 'the window', clause: 'you open the window' },
  },
  { action: 'i pick up the key n run', kind: 'sloppy', expect: { verb: 'pick up' } },
  {
    action: 'I look at the map and think about where to go next',
    kind: 'sloppy',
    expect: { clauses: 2, verb: 'think', object: '' },
  },
  {
    action: 'I weigh the gold coins in my palm and count them twice',
    kind: 'two-clauses',
    expect: { clauses: 2, verb: 'count' },
  },
  { action: "I can't move", kind: 'sloppy', expect: { verb: 'move', clause: "you can't move" } },
  { action: "I don't open the door", kind: 'sloppy', expect: { verb: 'open', object: 'the door' } },
  { action: 'I keep walking', kind: 'sloppy', expect: { verb: 'keep walking' } },
  { action: "Let's go", kind: 'pronoun', expect: { verb: 'go', clause: 'you go' } },
  { action: 'Yes', kind: 'speech', expect: { verb: 'say', speech: 'Yes', clause: 'you say, "Yes"' } },
  { action: 'Mara, open the gate!', kind: 'speech', expect: { verb: 'say', object: '', names: ['Mara'] } },
  { action: 'I stay here', kind: 'short', expect: { verb: 'stay', object: '' } },
  {
    action: 'I fall asleep by the fire',
    kind: 'preposition',
    expect: { verb: 'fall asleep', destination: 'by the fire' },
  },
  {
    action: 'Sword in hand, I advance',
    kind: 'adverb',
    expect: { clauses: 1, verb: 'advance', clause: 'sword in hand, you advance' },
  },
  { action: 'The door is locked, so I kick it', kind: 'pronoun', expect: { clauses: 2, verb: 'kick', object: 'it' } },
];
