// The post-apocalyptic voice: scarcity. Water, fuel, ammunition and trust, all running low.
import { capital, type GenreVoice } from './types';

export const postapocalyptic: GenreVoice = {
  openings: [
    (o) =>
      `Day four hundred and something. You reach ${o.where} with half a canteen and a handful of rounds. ${capital(o.sight)}, ${o.sound} drifts through the ruins, and ${o.person} watches you from behind a burned-out bus.`,
    (o) =>
      `What is left of ${o.where} is grey with ash and quiet with waiting. Then ${o.sight}, and ${o.sound} carries across the rubble. ${capital(o.person)} raises an empty hand, the old sign for trade.`,
    (o) =>
      `Before the fall, ${o.where} was on every map. Now ${o.sight}, and ${o.sound} is the only sign of life, apart from ${o.person}, who does not lower their weapon.`,
    (o) =>
      `Your boots crunch on broken glass as you come into ${o.where}. Supplies are low, and so is daylight. ${capital(o.sound)} rises somewhere ahead, ${o.sight}, and ${o.person} calls out a warning.`,
  ],
  sights: [
    'a Geiger counter clicks faster the closer you step',
    'green smoke rises from a cooking fire that should not be here',
    'a spray-painted arrow points the way you came',
    'a flock of crows lifts off all at once from the wreckage',
    'fresh tyre tracks cut through the ash',
    "a child's drawing is pinned to a burned-out car",
  ],
  sounds: [
    'the whine of a distant engine',
    'a radio crackling with a looping distress call',
    'the groan of twisted steel settling',
    'the barking of dogs in the ruins',
    'wind whistling through broken glass',
    'a generator coughing to life',
  ],
  places: [
    'the collapsed overpass',
    'the gutted supermarket',
    'the old fallout shelter',
    'the rusted water plant',
    'the silent highway',
    'the flooded subway entrance',
  ],
  figures: [
    'a scavenger in a patched gas mask',
    'a trader leading a two-headed mule',
    'a raider with a painted face',
    'a quiet medic with too few supplies',
    'an old soldier still in uniform',
    'a girl who speaks only in radio call signs',
  ],
  omens: [
    'the water in your canteen tastes faintly of metal',
    "the raiders' smoke signals are getting closer each night",
    'the map marks a settlement where there is only a crater',
    'the sky to the east is the wrong colour again',
    'someone has been following your tracks since dawn',
    'the distress call now repeats your name',
  ],
  details: [
    'Ash drifts down like grey snow, and it tastes of rust when it lands on your lips.',
    'Every shelf here was stripped long ago, except for one dented can nobody could open.',
    'Weeds split the asphalt, and the only green for miles grows out of the cracks.',
    'The wind smells of diesel and wet concrete, and beneath that, of nothing at all.',
    'Faded posters still promise a brighter tomorrow, peeling from the walls in long strips.',
    'You count what you have left: two days of water, if you are careful, and one if you are not.',
    'Rusted cars sit bumper to bumper on the road out of town, still waiting for a traffic jam to clear.',
    'A rain barrel stands half full, and a thin sheen on the surface says not to trust it.',
  ],
  connectors: [
    'Out here, everything has a price.',
    'You check your water without thinking about it.',
    'The wasteland does not forgive mistakes.',
    'You have learned to trust silence less than noise.',
    'Supplies first, questions later.',
    'You tighten the straps of your pack.',
    'Nothing out here is free, least of all help.',
    'Another day survived is another day owed.',
  ],
  questions: [
    'What are you willing to trade?',
    'Do you share what little you have, or keep moving?',
    'Is it worth the risk for a few more supplies?',
    'Which way do you scavenge next?',
  ],
  peril: [
    'The counter on your wrist climbs into the yellow and stays there.',
    'The floor of the old building sags under you with a sound like a sigh.',
  ],
  darker: [
    'The last people to shelter here did not leave, and the smell says so.',
    'The raiders mark their borders with the remains of trespassers.',
  ],
  titleNouns: ['Ash', 'Wasteland', 'Signal', 'Ruin', 'Shelter', 'Embers'],
};
