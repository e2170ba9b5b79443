// The historical voice: period-true and without magic. Dispatches, seals, armies, markets, weather.
import { capital, type GenreVoice } from './types';

export const historical: GenreVoice = {
  openings: [
    (o) =>
      `The times are uncertain, and you stand at ${o.where} with orders sewn into the lining of your coat. ${capital(o.sight)}, ${o.sound} carries over the rooftops, and ${o.person} beckons you with a gloved hand.`,
    (o) =>
      `The road to ${o.where} is churned to mud by carts and marching boots. As you arrive, ${o.sight}, and ${o.sound} marks the hour. ${capital(o.person)} is waiting, as arranged, and looks relieved to see you.`,
    (o) =>
      `History is being made at ${o.where}, though nobody there has time to notice. ${capital(o.sight)}; ${o.sound} rises above the talk of prices and rumours, and ${o.person} draws you aside.`,
    (o) =>
      `You reach ${o.where} at dawn, stiff from the saddle, with a dispatch case that must not be opened by anyone but its addressee. ${capital(o.sound)} greets you, ${o.sight}, and ${o.person} asks for your name and business.`,
  ],
  sights: [
    'torches gutter in iron brackets along the wall',
    'a herald unrolls a proclamation bearing a broken seal',
    'soldiers in mismatched uniforms block the far gate',
    'a ship with black sails glides into the harbour',
    'merchants hurry to shutter their stalls',
    'a clerk drops his candle and does not stop to pick it up',
  ],
  sounds: [
    'the clang of the smithy',
    'a crier calling the hour',
    'the rumble of cartwheels on stone',
    'the peal of church bells ringing out of turn',
    'the shout of a drill sergeant',
    "the drum of a messenger's hoofbeats",
  ],
  places: [
    'the market square',
    'the harbour wall',
    'the cathedral steps',
    "the governor's hall",
    'the muddy army camp',
    'the yard of the coaching inn',
  ],
  figures: [
    'a tax collector with a heavy purse',
    'a scribe with a secret in his sleeve',
    'a veteran missing two fingers',
    'a noblewoman travelling without her escort',
    'a merchant from a faraway port',
    'a captain with a dispatch case under his arm',
  ],
  omens: [
    "the messenger carries the king's seal, but the wax is still warm",
    'the bridge on the Brussels road has been burned',
    'the grain stores are emptier than the ledgers claim',
    'a comet has been seen over the city for three nights',
    'the city gates will close at dusk by order of the council',
    "someone in the crowd is wearing the enemy's colours beneath his cloak",
  ],
  details: [
    'The air smells of woodsmoke, horses and wet wool, and the cobbles are slick with the morning rain.',
    'A broadsheet nailed to the door reports news that is already a week old.',
    'Candle stubs and sealing wax litter the table beside a well-thumbed map.',
    'The church clock is five minutes behind the town hall clock, and everyone has an opinion about which is right.',
    "Barrels of salt pork and hard biscuit are stacked by the wall, each stamped with the quartermaster's mark.",
    'Wagons loaded with powder and shot roll past, their drivers silent and grim.',
    'Through the window you can see the road, rutted and crowded with carts heading the other way.',
    'A portrait of the monarch hangs slightly crooked, and nobody has dared to straighten it.',
  ],
  connectors: [
    'Duty, for now, outweighs fear.',
    'The hour is later than you would like.',
    'News travels no faster than a good horse.',
    'You mind your manners, as the times require.',
    'Somewhere, generals are deciding things you will only hear of later.',
    'Your orders are clear; the situation is not.',
    'You touch the seal on your dispatch case, out of habit.',
    'Rumour runs ahead of you, as it always does.',
  ],
  questions: [
    'Where does your duty take you now?',
    'Whom do you trust with the news you carry?',
    'Do you follow your orders to the letter, or your conscience?',
    'How do you proceed?',
  ],
  peril: [
    'Cannon fire rumbles beyond the ridge, closer than it was an hour ago.',
    'A patrol is searching every traveller on the road, and your papers will not bear close reading.',
  ],
  darker: [
    'The field hospital is full, and the surgeons have stopped counting the wounded.',
    'Men who failed in such a duty have been shot for it, and you know it.',
  ],
  titleNouns: ['Dispatch', 'Chronicle', 'Seal', 'Crown', 'Harbour', 'Banner'],
};
