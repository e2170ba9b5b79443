// Science fiction's voice: machines, vacuum and signal. Tech that hums, fails and talks back.
import { capital, type GenreVoice } from './types';

export const scifi: GenreVoice = {
  openings: [
    (o) =>
      `System clocks read 06:00 when you reach ${o.where}, and ${o.sight}. ${capital(o.sound)} threads through the recycled air, and ${o.person} pings your comm before you can log in.`,
    (o) =>
      `Your boots lock onto the deck at ${o.where}. A status light blinks green, then amber; ${o.sight}, and ${o.sound} cuts across the ventilation hum. ${capital(o.person)} is already watching the telemetry.`,
    (o) =>
      `Nobody briefed you properly on ${o.where}. The airlock cycles, ${o.sight}, and ${o.sound} sets every display flickering. Across the compartment, ${o.person} gives you a tight nod.`,
    (o) =>
      `Mission log, day one: you arrive at ${o.where} with a half-charged suit and a full set of doubts. Then ${o.sight}, while ${o.sound} rises through the hull, and ${o.person} signals you over.`,
  ],
  sights: [
    'warning lights ripple amber along the bulkhead',
    'a hologram flickers to life and shows a face you almost recognise',
    'frost blooms across the viewport in strange geometric shapes',
    'a maintenance drone freezes mid-task and turns its lens toward you',
    'the stars outside slide sideways as the station shifts its spin',
    'a string of numbers scrolls across every screen at once',
  ],
  sounds: [
    'the hiss of a pressure seal',
    'a proximity alarm chirping three times',
    'the hum of a reactor changing pitch',
    'static that almost sounds like a voice',
    'the clank of magnetic boots overhead',
    'a synthetic voice reciting coordinates',
  ],
  places: [
    'the observation deck',
    'the cargo bay',
    'the maintenance shaft',
    'the airlock corridor',
    'the hydroponics ring',
    'the bridge',
  ],
  figures: [
    'a technician in a scorched flight suit',
    'an android with one cracked optic',
    "the station's captain, pale and unshaven",
    'a smuggler with a mirror-bright prosthetic hand',
    'a cadet wearing an oversized helmet',
    'a figure in an environment suit with no name patch',
  ],
  omens: [
    'the oxygen readout drops by a single percent',
    'an unregistered ship matches your orbit',
    'the AI asks, politely, whether you are sure',
    'a door that has been sealed for ten years reports itself open',
    'the stars behind the planet start to go out one by one',
    'your own ID badge now lists you as missing',
  ],
  details: [
    'The air tastes of ozone and recycled breath, and the deck plates tick as they cool.',
    'Cables snake along the ceiling, bundled with tape that someone has labelled by hand.',
    'A cracked display loops a safety briefing nobody has watched in years.',
    'Condensation beads on the coolant pipes and falls in slow, weightless drops.',
    'Outside the viewport a gas giant turns, banded in rust and cream, vast enough to make you dizzy.',
    'Every surface carries a serial number, and half of them have been scratched out.',
    'The gravity here is a little light, and every step carries you a fraction too far.',
    'Somewhere in the ducts a fan is failing, ticking like a clock that has lost count.',
  ],
  connectors: [
    'Your suit logs the anomaly without being asked.',
    'The numbers on your wrist display do not add up.',
    'Somewhere deep in the hull, a relay clicks over.',
    'Your comm stays silent, which is worse than static.',
    'The ship corrects its course by half a degree.',
    'Your heads-up display flags it in yellow.',
    'The vacuum outside is only a hand-width of alloy away.',
    'The diagnostics come back clean, which proves nothing.',
  ],
  questions: [
    'Do you trust the system readout, or your own eyes?',
    'Which protocol do you follow now?',
    'Do you open a channel, or stay dark?',
    'How do you spend the power you have left?',
  ],
  peril: [
    'A pressure warning flashes once: one breach here and the corridor vents to space.',
    'The reactor temperature creeps upward, a degree at a time.',
  ],
  darker: [
    'The last crew on this deck never made it to the escape pods, and the log says why.',
    'A frozen glove still floats by the airlock, and the hand is still inside it.',
  ],
  titleNouns: ['Orbit', 'Signal', 'Drift', 'Horizon', 'Station', 'Void'],
};
