// Composes one scene as SVG from its analysis: sky for the hour and weather, sun or moon, stars and
// clouds, the setting's backdrop, a river and bridge when named, the named things placed on the
// ground, water or sky, then rain, snow, fog or a storm's lightning, the genre's wash and a
// vignette. Every choice of place comes from the seeded PRNG, so one text gives one picture.
import type { SceneAnalysis, Thing } from './analysis';
import { drawBackdrop, planBackdrop } from './backdrops';
import { FRAME_HEIGHT as H, FRAME_WIDTH as W, n, type Backdrop, type BackdropPlan } from './frame';
import { darken, lighten, mix, scenePalette, type ScenePalette } from './palette';
import { createRandom, type Random } from './random';
import { drawThing, THING_PLACES, THING_SCALES } from './silhouettes';

interface Light {
  x: number;
  y: number;
  night: boolean;
}

function placeLight(analysis: SceneAnalysis, plan: BackdropPlan, rng: Random): Light {
  const night = analysis.timeOfDay === 'night';
  const o = plan.opening;
  if (o)
    return {
      x: o.x + o.w * rng.between(0.3, 0.7),
      y: o.y + o.h * (night || analysis.timeOfDay === 'day' ? 0.3 : 0.6),
      night,
    };
  const low = plan.horizon - rng.between(50, 90);
  if (analysis.timeOfDay === 'dawn') return { x: rng.between(140, 340), y: low, night };
  if (analysis.timeOfDay === 'dusk') return { x: rng.between(680, 880), y: low, night };
  return { x: rng.between(580, 900), y: rng.between(80, 140), night };
}

function sky(p: ScenePalette, plan: BackdropPlan): string {
  const horizonAt = Math.min(0.95, plan.horizon / H);
  return (
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.skyTop}"/>` +
    `<stop offset="${horizonAt.toFixed(2)}" stop-color="${p.skyHorizon}"/><stop offset="1" stop-color="${p.skyHorizon}"/></linearGradient>` +
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>`
  );
}

function celestial(analysis: SceneAnalysis, p: ScenePalette, light: Light, rng: Random): string {
  if (analysis.setting === 'space') return '';
  const overcast = analysis.weather === 'rain' || analysis.weather === 'storm';
  const halo = `<radialGradient id="halo"><stop offset="0" stop-color="${p.light}" stop-opacity="0.55"/><stop offset="1" stop-color="${p.light}" stop-opacity="0"/></radialGradient>`;
  if (light.night) {
    const r = analysis.things.includes('moon') ? 46 : 28;
    const phase =
      rng.next() < 0.5
        ? `<circle cx="${n(light.x + r * 0.45)}" cy="${n(light.y - r * 0.2)}" r="${r}" fill="${p.skyTop}"/>`
        : '';
    return `${halo}<circle cx="${n(light.x)}" cy="${n(light.y)}" r="${r * 3.2}" fill="url(#halo)" opacity="${overcast ? 0.4 : 0.8}"/><circle cx="${n(light.x)}" cy="${n(light.y)}" r="${r}" fill="${p.light}" opacity="${overcast ? 0.45 : 1}"/>${phase}`;
  }
  const r = analysis.timeOfDay === 'day' ? 34 : 48;
  return `${halo}<circle cx="${n(light.x)}" cy="${n(light.y)}" r="${r * 4}" fill="url(#halo)" opacity="${overcast ? 0.35 : 0.9}"/><circle cx="${n(light.x)}" cy="${n(light.y)}" r="${r}" fill="${p.light}" opacity="${overcast ? 0.3 : 1}"/>`;
}

/** Stars as one path of round-capped zero-length strokes: hundreds of dots for one element. */
function dots(rng: Random, count: number, top: number, bottom: number): string {
  let d = '';
  for (let i = 0; i < count; i += 1) d += `M${n(rng.between(0, W))} ${n(rng.between(top, bottom))}h0`;
  return d;
}

function stars(analysis: SceneAnalysis, plan: BackdropPlan, rng: Random): string {
  const clearNight = analysis.timeOfDay === 'night' && (analysis.weather === 'clear' || analysis.weather === 'snow');
  if (analysis.setting !== 'space' && !clearNight) return '';
  const count = analysis.setting === 'space' ? 260 : 140;
  return (
    `<path d="${dots(rng, count, 0, plan.horizon)}" stroke="#ffffff" stroke-width="2" stroke-linecap="round" opacity="0.8"/>` +
    `<path d="${dots(rng, count / 6, 0, plan.horizon * 0.8)}" stroke="#fff8e0" stroke-width="3.5" stroke-linecap="round"/>`
  );
}

function clouds(analysis: SceneAnalysis, p: ScenePalette, rng: Random): string {
  if (analysis.setting === 'space' || analysis.weather === 'fog') return '';
  const heavy = analysis.weather === 'rain' || analysis.weather === 'storm' || analysis.weather === 'snow';
  const count = heavy ? 7 : analysis.timeOfDay === 'night' ? 2 : rng.int(2, 4);
  const color = heavy
    ? darken(p.skyTop, analysis.weather === 'storm' ? 0.35 : 0.1)
    : lighten(mix(p.skyHorizon, p.light, 0.3), 0.35);
  let puffs = '';
  for (let i = 0; i < count; i += 1) {
    const x = heavy ? (i / (count - 1)) * W : rng.between(60, W - 60);
    const y = heavy ? rng.between(10, 70) : rng.between(50, 170);
    const s = heavy ? rng.between(1.6, 2.4) : rng.between(0.7, 1.2);
    puffs += `<g transform="translate(${n(x)} ${n(y)}) scale(${s.toFixed(2)})"><ellipse cx="0" cy="0" rx="70" ry="22"/><circle cx="-24" cy="-12" r="24"/><circle cx="18" cy="-18" r="30"/></g>`;
  }
  return `<g fill="${color}" opacity="${heavy ? 0.92 : 0.75}">${puffs}</g>`;
}

function riverAndBridge(
  analysis: SceneAnalysis,
  backdrop: Backdrop,
  plan: BackdropPlan,
  p: ScenePalette,
  rng: Random,
): string {
  const hasBridge = analysis.things.includes('bridge');
  if (!analysis.things.includes('river') && !hasBridge) return '';
  if (analysis.setting === 'space' || analysis.setting === 'sea' || analysis.setting === 'interior') return '';
  // The river comes down from the horizon when land shows there, so it reads as a river, not a pond.
  const top = Math.max(plan.horizon + 20, backdrop.ground[0] - 50);
  const start = rng.between(380, 640);
  const end = rng.between(260, 760);
  const water = mix(p.skyHorizon, '#2a5a8a', 0.45);
  const river = `<path d="M${n(start - 12)} ${top - 10}C${n(start - 60)} ${top + 30} ${n(end + 80)} ${H - 90} ${n(end - 120)} ${H}H${n(end + 120)}C${n(end + 170)} ${H - 90} ${n(start + 30)} ${top + 30} ${n(start + 12)} ${top - 10}Z" fill="${water}"/>`;
  if (!hasBridge) return river;
  // Where the river is about halfway down, on the line between its two banks' curves.
  const y = top + (H - top) * 0.35;
  const x = start + (end - start) * 0.3;
  const stone = mix(p.litFar, p.litNear, 0.5);
  return `${river}<path d="M${n(x - 170)} ${y + 40}Q${n(x)} ${y - 50} ${n(x + 170)} ${y + 40}v14Q${n(x)} ${y - 20} ${n(x - 170)} ${y + 54}Z M${n(x - 170)} ${y + 40}v-46M${n(x + 170)} ${y + 40}v-46" fill="${stone}" stroke="${stone}" stroke-width="6"/>`;
}

const TABLE_THINGS = new Set<Thing>(['candle', 'book', 'key', 'skull', 'crystal', 'chest']);

/** Ground things get evenly spread slots in a shuffled order, drawn far to near so near ones overlap. */
function things(analysis: SceneAnalysis, backdrop: Backdrop, plan: BackdropPlan, p: ScenePalette, rng: Random): string {
  const placed: Array<{ y: number; svg: string }> = [];
  const onGround: Thing[] = [];
  const [far, near] = backdrop.ground;
  const onTable: Thing[] = [];
  for (const thing of analysis.things) {
    const place = THING_PLACES[thing];
    if (place === 'terrain') continue;
    // Indoors the fireplace is the fire; small things go on the table rather than the floor.
    if (analysis.setting === 'interior' && thing === 'torch') continue;
    if (backdrop.table && TABLE_THINGS.has(thing) && onTable.length < 3) {
      onTable.push(thing);
      continue;
    }
    if (place === 'sky' && analysis.setting !== 'interior' && analysis.setting !== 'cave') {
      const x = rng.between(120, W - 120);
      const y = rng.between(110, Math.max(140, plan.horizon - 90));
      placed.push({
        y: 0,
        svg: drawThing(thing, x, y, THING_SCALES[thing] * rng.between(0.8, 1.1), p, rng.next() < 0.5),
      });
    } else if (place === 'sky' && plan.opening) {
      const o = plan.opening;
      placed.push({
        y: 0,
        svg: drawThing(thing, o.x + o.w * rng.between(0.3, 0.7), o.y + o.h * 0.6, THING_SCALES[thing] * 0.5, p),
      });
    } else if (place === 'water' && backdrop.water) {
      const y = rng.between(backdrop.water[0], backdrop.water[1]);
      const depth = (y - backdrop.water[0]) / (backdrop.water[1] - backdrop.water[0]);
      placed.push({
        y,
        svg: drawThing(
          thing,
          rng.between(150, W - 150),
          y,
          THING_SCALES[thing] * (0.6 + depth * 0.7),
          p,
          rng.next() < 0.5,
        ),
      });
    } else onGround.push(thing);
  }
  const slots = onGround.map((_, i) => i);
  for (let i = slots.length - 1; i > 0; i -= 1) {
    const j = rng.int(0, i);
    [slots[i], slots[j]] = [slots[j], slots[i]];
  }
  const slotWidth = (W - 160) / Math.max(1, onGround.length);
  onGround.forEach((thing, i) => {
    const x = 80 + slotWidth * (slots[i] + 0.5) + rng.between(-0.2, 0.2) * slotWidth;
    const y = rng.between(far, near);
    const depth = 0.75 + 0.5 * ((y - far) / Math.max(1, near - far));
    placed.push({ y, svg: drawThing(thing, x, y, THING_SCALES[thing] * depth, p, rng.next() < 0.5) });
  });
  if (backdrop.table) {
    const [left, right, top] = backdrop.table;
    onTable.forEach((thing, i) => {
      const x = left + ((right - left) * (i + 0.5)) / onTable.length;
      placed.push({ y: top, svg: drawThing(thing, x, top, THING_SCALES[thing] * 0.8, p, rng.next() < 0.5) });
    });
  }
  return placed
    .sort((a, b) => a.y - b.y)
    .map((item) => item.svg)
    .join('');
}

function weather(analysis: SceneAnalysis, p: ScenePalette, rng: Random): string {
  const kind = analysis.weather;
  if (kind === 'rain' || kind === 'storm') {
    const count = kind === 'storm' ? 320 : 220;
    const slant = kind === 'storm' ? -14 : -6;
    let d = '';
    for (let i = 0; i < count; i += 1)
      d += `M${n(rng.between(0, W + 40))} ${n(rng.between(-20, H))}l${slant} ${kind === 'storm' ? 30 : 22}`;
    let svg = `<path d="${d}" stroke="${lighten(p.skyHorizon, 0.5)}" stroke-width="1.4" opacity="0.5"/>`;
    if (kind === 'storm') {
      let x = rng.between(200, W - 200);
      let bolt = `M${n(x)} 0`;
      for (let y = 40; y < 300; y += rng.between(30, 50)) {
        x += rng.between(-40, 40);
        bolt += `L${n(x)} ${n(y)}`;
      }
      svg += `<rect width="${W}" height="${H}" fill="#ffffff" opacity="0.07"/><path d="${bolt}" fill="none" stroke="#dfe8ff" stroke-width="10" opacity="0.3"/><path d="${bolt}" fill="none" stroke="#ffffff" stroke-width="3"/>`;
    }
    return svg;
  }
  if (kind === 'snow')
    return `<path d="${dots(rng, 200, 0, H)}" stroke="#ffffff" stroke-width="4" stroke-linecap="round" opacity="0.85"/>`;
  if (kind === 'fog') {
    const fog = mix(p.skyHorizon, '#d8dce0', 0.6);
    let bands = `<linearGradient id="fog" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${fog}" stop-opacity="0"/><stop offset="0.5" stop-color="${fog}" stop-opacity="0.55"/><stop offset="1" stop-color="${fog}" stop-opacity="0"/></linearGradient>`;
    for (let i = 0; i < 4; i += 1)
      bands += `<rect x="-20" y="${n(rng.between(220, 520))}" width="${W + 40}" height="${n(rng.between(60, 140))}" fill="url(#fog)"/>`;
    return `${bands}<rect width="${W}" height="${H}" fill="${fog}" opacity="0.18"/>`;
  }
  return '';
}

/**
 * The genre's wash and a vignette. The vignette is two crossed linear gradients: librsvg paints a
 * full-frame radial gradient about four times slower, and this one looks the same at a glance.
 */
function finish(p: ScenePalette): string {
  const edge = (opacity: number) =>
    `<stop offset="0" stop-color="#000" stop-opacity="${opacity}"/><stop offset="0.22" stop-color="#000" stop-opacity="0"/>`;
  const far = (opacity: number) =>
    `<stop offset="0.78" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${opacity}"/>`;
  return (
    `<rect width="${W}" height="${H}" fill="${p.wash}" fill-opacity="${p.washOpacity}"/>` +
    `<linearGradient id="vignette-x">${edge(0.5)}${far(0.5)}</linearGradient>` +
    `<linearGradient id="vignette-y" x2="0" y2="1">${edge(0.35)}${far(0.45)}</linearGradient>` +
    `<rect width="${W}" height="${H}" fill="url(#vignette-x)"/><rect width="${W}" height="${H}" fill="url(#vignette-y)"/>`
  );
}

/** The whole scene; `seed` is the hash of the text and story seed, so each layer draws its own stream. */
export function composeSceneSvg(analysis: SceneAnalysis, seed: number, width: number, height: number): string {
  const rng = createRandom(seed);
  const palette = scenePalette(analysis.genre, analysis.timeOfDay, analysis.weather);
  const plan = planBackdrop(analysis.setting, rng.fork('plan'));
  const light = placeLight(analysis, plan, rng.fork('light'));
  const backdrop = drawBackdrop(analysis.setting, { rng: rng.fork('backdrop'), palette, plan, light });
  // Indoors and in caves the weather is only seen through the opening, so it goes under the walls.
  const enclosed = plan.opening !== null;
  const weatherSvg = weather(analysis, palette, rng.fork('weather'));
  const body =
    sky(palette, plan) +
    stars(analysis, plan, rng.fork('stars')) +
    celestial(analysis, palette, light, rng.fork('celestial')) +
    clouds(analysis, palette, rng.fork('clouds')) +
    (enclosed ? weatherSvg : '') +
    backdrop.svg +
    riverAndBridge(analysis, backdrop, plan, palette, rng.fork('river')) +
    things(analysis, backdrop, plan, palette, rng.fork('things')) +
    (enclosed ? '' : weatherSvg) +
    finish(palette);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${W} ${H}" preserveAspectRatio="xMidYMid slice">${body}</svg>`;
}
