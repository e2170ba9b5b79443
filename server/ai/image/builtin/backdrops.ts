// The land behind a scene, one drawer per setting: the sea with waves and a ship, layered forest,
// mountain ridges, a city skyline with lit windows, broken columns, planets, dunes, a cave mouth,
// a castle, a village, a tavern room, or open plains. Drawn in a fixed 1024 × 576 frame; each drawer
// says where things may stand (`ground`), where ships sail (`water`) and, indoors, where the sky
// shows through (`opening`).
import type { Setting } from './analysis';
import { FRAME_WIDTH as W, type Backdrop, type BackdropContext, type BackdropPlan } from './frame';
import { desert, forest, mountains, plains, sea, space } from './landscapes';
import type { Random } from './random';
import { castle, cave, city, interior, ruins, village } from './structures';

const HORIZONS: Record<Setting, number> = {
  sea: 330,
  forest: 360,
  mountains: 400,
  city: 420,
  ruins: 390,
  space: 500,
  desert: 390,
  cave: 330,
  castle: 400,
  village: 400,
  interior: 300,
  plains: 380,
};

export function planBackdrop(setting: Setting, rng: Random): BackdropPlan {
  const horizon = HORIZONS[setting];
  if (setting === 'interior') return { horizon, opening: { x: rng.pick([110, 380, 640]), y: 90, w: 270, h: 200 } };
  if (setting === 'cave') {
    const w = rng.between(380, 520);
    return { horizon, opening: { x: rng.between(160, W - 160 - w), y: 110, w, h: 300 } };
  }
  return { horizon, opening: null };
}

const DRAWERS: Record<Setting, (ctx: BackdropContext) => Backdrop> = {
  sea,
  forest,
  mountains,
  city,
  ruins,
  space,
  desert,
  cave,
  castle,
  village,
  interior,
  plains,
};

export function drawBackdrop(setting: Setting, ctx: BackdropContext): Backdrop {
  return DRAWERS[setting](ctx);
}
