// The things a scene names, drawn as simple recognisable silhouettes. Each shape is drawn in its
// own unit box (standing on y = 0, about 100 units tall, centred on x = 0) and placed with one
// transform, so the scene composer decides where and how big without knowing the shapes.
import type { Thing } from './analysis';
import { lighten, mix, type ScenePalette } from './palette';

/** Where a thing belongs: on the ground, in the sky, on the water, or as part of the land. */
export type ThingPlace = 'ground' | 'sky' | 'water' | 'terrain';

export const THING_PLACES: Record<Thing, ThingPlace> = {
  lantern: 'ground',
  torch: 'ground',
  candle: 'ground',
  tower: 'ground',
  door: 'ground',
  ship: 'water',
  spaceship: 'sky',
  dragon: 'sky',
  sword: 'ground',
  moon: 'terrain',
  river: 'terrain',
  bridge: 'terrain',
  tree: 'ground',
  skull: 'ground',
  grave: 'ground',
  key: 'ground',
  book: 'ground',
  horse: 'ground',
  crystal: 'ground',
  raven: 'sky',
  wolf: 'ground',
  robot: 'ground',
  chest: 'ground',
  cactus: 'ground',
  figure: 'ground',
  car: 'ground',
};

/** Relative size, so a tower stands over a skull when both are in one scene. */
export const THING_SCALES: Record<Thing, number> = {
  lantern: 1,
  torch: 0.8,
  candle: 0.5,
  tower: 2.4,
  door: 1.3,
  ship: 1.6,
  spaceship: 1.2,
  dragon: 1.6,
  sword: 0.9,
  moon: 1,
  river: 1,
  bridge: 1,
  tree: 1.8,
  skull: 0.45,
  grave: 0.8,
  key: 0.6,
  book: 0.6,
  horse: 1.2,
  crystal: 0.9,
  raven: 0.5,
  wolf: 0.8,
  robot: 1.2,
  chest: 0.6,
  cactus: 1.4,
  figure: 1.1,
  car: 1.1,
};

function glow(cx: number, cy: number, r: number, color: string, opacity = 0.35): string {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${color}" opacity="${opacity}"/><circle cx="${cx}" cy="${cy}" r="${r * 0.5}" fill="${color}" opacity="${opacity}"/>`;
}

type Drawer = (p: ScenePalette) => string;

const METAL = '#c9ced6';

const DRAWERS: Record<Thing, Drawer> = {
  lantern: (p) =>
    `<rect x="-3" y="-100" width="6" height="100" fill="${p.litNear}"/><rect x="-3" y="-100" width="26" height="5" fill="${p.litNear}"/>` +
    glow(20, -74, 34, p.glow) +
    `<path d="M12 -90h16l4 8v20l-4 6h-16l-4-6v-20z" fill="${p.litNear}"/><rect x="13" y="-82" width="14" height="18" fill="${p.glow}"/>`,
  torch: (p) =>
    glow(0, -38, 48, p.glow, 0.3) +
    `<path d="M-34 0l62-16 4 8-62 16z M34 0l-62-16-4 8 62 16z" fill="${p.litNear}"/>` +
    `<path d="M0 -80c10 20 26 34 18 58-4 12-32 12-36 0-8-24 8-30 18-58z" fill="${p.accent}"/>` +
    `<path d="M0 -52c6 12 14 20 9 34-3 7-15 7-18 0-4-14 4-18 9-34z" fill="${p.glow}"/>`,
  candle: (p) =>
    glow(0, -92, 30, p.glow, 0.35) +
    `<path d="M-30 0h60l-8-10h-44z" fill="${p.litNear}"/><rect x="-12" y="-70" width="24" height="62" fill="${lighten(p.accent, 0.7)}"/>` +
    `<path d="M0 -96c5 8 9 14 5 21-2 3-8 3-10 0-4-7 0-13 5-21z" fill="${p.glow}"/>`,
  tower: (p) =>
    `<path d="M-20 0v-80h-4v-12h10v6h8v-6h12v6h8v-6h10v12h-4v80z" fill="${p.litNear}"/>` +
    `<path d="M-4 -58h8v-10a4 4 0 0 0-8 0z M-5 -28h10v-12a5 5 0 0 0-10 0z" fill="${p.glow}"/>`,
  door: (p) =>
    `<path d="M-40 0v-80a40 40 0 0 1 80 0v80z" fill="${p.litNear}"/>` +
    `<path d="M-30 0v-78a30 30 0 0 1 60 0v78z" fill="${mix(p.near, p.accent, 0.35)}"/>` +
    `<path d="M-10 0v-106M10 0v-106" stroke="${p.litNear}" stroke-width="3"/><circle cx="18" cy="-48" r="4" fill="${p.accent}"/>`,
  ship: (p) =>
    `<path d="M-60 -14h120l-18 22h-86z" fill="${p.litNear}"/><rect x="-3" y="-100" width="5" height="86" fill="${p.litNear}"/>` +
    `<rect x="-33" y="-78" width="4" height="64" fill="${p.litNear}"/>` +
    `<path d="M4 -96c26 14 28 50 0 70z M-27 -74c20 12 20 38 0 52z" fill="${lighten(p.litFar, 0.45)}"/>` +
    `<path d="M2 -100l18 5-18 5z" fill="${p.accent}"/>`,
  spaceship: (p) =>
    glow(-58, -30, 18, p.glow, 0.5) +
    `<path d="M-56 -36l30-10h60l30 14-30 12h-60l-30-8z" fill="${lighten(p.litNear, 0.25)}"/>` +
    `<path d="M-10 -46l20-16h20l-4 16z M-10 -20l24 16h16l-6-16z" fill="${p.litNear}"/>` +
    `<rect x="14" y="-40" width="22" height="6" fill="${p.glow}"/>`,
  dragon: (p) =>
    `<path d="M-70 -30c20-4 40-6 60 0c14 4 30 4 44-8l18-6-4 10 10 2-16 8c-12 10-30 14-50 10l-20 6c-20 6-34 14-54 10 16-6 26-14 36-22z" fill="${p.litNear}"/>` +
    `<path d="M-20 -30l-18-56 40 34 16-48 14 60z" fill="${p.litNear}"/><circle cx="44" cy="-40" r="2.5" fill="${p.accent}"/>`,
  sword: (p) =>
    `<path d="M-5 0v-70l5-8 5 8v70z" fill="${METAL}"/><rect x="-22" y="-82" width="44" height="6" rx="3" fill="${p.accent}"/>` +
    `<rect x="-4" y="-104" width="8" height="22" fill="${p.litNear}"/><circle cx="0" cy="-108" r="6" fill="${p.accent}"/>` +
    `<path d="M-26 0h52l-6-6h-40z" fill="${p.litNear}"/>`,
  // The moon, river and bridge belong to the sky and land; the scene composer draws them.
  moon: () => '',
  river: () => '',
  bridge: () => '',
  tree: (p) =>
    `<path d="M-7 0l3-50h8l3 50z" fill="${p.litNear}"/>` +
    `<circle cx="0" cy="-70" r="30" fill="${mix(p.litNear, p.litGround, 0.35)}"/><circle cx="-22" cy="-54" r="20" fill="${mix(p.litNear, p.litGround, 0.35)}"/>` +
    `<circle cx="22" cy="-56" r="22" fill="${mix(p.litNear, p.litGround, 0.3)}"/><circle cx="4" cy="-92" r="18" fill="${mix(p.litNear, p.litGround, 0.4)}"/>`,
  skull: (p) =>
    `<path d="M-40 -40a40 40 0 0 1 80 0c0 14-6 20-14 24v16h-52v-16c-8-4-14-10-14-24z" fill="${lighten(p.far, 0.7)}"/>` +
    `<circle cx="-16" cy="-38" r="10" fill="${p.litNear}"/><circle cx="16" cy="-38" r="10" fill="${p.litNear}"/>` +
    `<path d="M0 -26l-6 12h12z M-16 -6v6M-6 -6v6M6 -6v6M16 -6v6" fill="${p.litNear}" stroke="${p.litNear}" stroke-width="3"/>`,
  grave: (p) =>
    `<path d="M-34 0v-70a34 34 0 0 1 68 0v70z" fill="${mix(p.litFar, '#808890', 0.5)}"/>` +
    `<path d="M-4 -76h8v14h14v8h-14v28h-8v-28h-14v-8h14z" fill="${p.litNear}"/><path d="M-50 0c20-10 80-10 100 0z" fill="${p.litGround}"/>`,
  key: (p) =>
    glow(0, -60, 46, p.glow, 0.25) +
    `<circle cx="0" cy="-86" r="16" fill="none" stroke="${p.accent}" stroke-width="8"/>` +
    `<path d="M-4 -70h8v62h-8z M4 -26h14v8h-14z M4 -12h10v8h-10z" fill="${p.accent}"/>`,
  book: (p) =>
    `<path d="M-10 0h20l-4-40h-12z" fill="${p.litNear}"/><path d="M0 -40l-54-12 4-22 50 10z M0 -40l54-12-4-22-50 10z" fill="${p.litNear}"/>` +
    `<path d="M0 -46l-48-10 3-14 45 9z M0 -46l48-10-3-14-45 9z" fill="${lighten(p.accent, 0.75)}"/>`,
  horse: (p) =>
    `<path d="M-46 -56c10-10 50-12 66-4l18-28c4-6 12-8 18-4l12 10-4 6-10-4-8 18c-2 10-6 16-10 20v42h-8l-2-30c-14 4-36 4-50 0l-4 30h-8l-2-34c-6 6-12 10-20 14l-4-6c10-8 12-18 12-30z" fill="${p.litNear}"/>` +
    `<path d="M44 -96l-2-10 8 6z" fill="${p.litNear}"/>`,
  crystal: (p) =>
    glow(0, -40, 60, p.accent, 0.25) +
    `<path d="M-8 0l-12-60 14-26 14 26-8 60z" fill="${lighten(p.accent, 0.2)}"/><path d="M-6 -86l14 26-8 60h-4z" fill="${lighten(p.accent, 0.55)}"/>` +
    `<path d="M-30 0l-10-36 12-12 10 14 2 34z M30 0l10-40-14-12-8 18-2 34z" fill="${mix(p.accent, p.near, 0.25)}"/>`,
  raven: (p) =>
    `<path d="M-50 -40c14-4 30 0 46 16 16-16 32-20 46-16-18 2-30 10-40 26l-6 6-6-6c-10-16-22-24-40-26z" fill="${p.litNear}"/>`,
  wolf: (p) =>
    `<path d="M-50 0c0-20 6-34 20-42l30-6 14-30 4 10 6-12 6 20c6 4 10 10 8 16l-18-2c-4 10-4 24 2 46h-10l-8-30-26 10-6 20h-10l2-24c-8 4-14 10-18 22z" fill="${p.litNear}"/>` +
    `<path d="M-50 -6c-10-4-18-14-16-30 6 10 12 16 20 20z" fill="${p.litNear}"/>`,
  robot: (p) =>
    `<rect x="-20" y="-104" width="40" height="28" rx="5" fill="${lighten(p.litNear, 0.25)}"/><rect x="-12" y="-96" width="24" height="8" fill="${p.glow}"/>` +
    `<rect x="-30" y="-72" width="60" height="40" rx="4" fill="${lighten(p.litNear, 0.2)}"/><rect x="-42" y="-70" width="10" height="40" fill="${p.litNear}"/>` +
    `<rect x="32" y="-70" width="10" height="40" fill="${p.litNear}"/><rect x="-24" y="-32" width="14" height="32" fill="${p.litNear}"/>` +
    `<rect x="10" y="-32" width="14" height="32" fill="${p.litNear}"/><circle cx="0" cy="-52" r="6" fill="${p.accent}"/>`,
  chest: (p) =>
    glow(0, -40, 50, p.glow, 0.22) +
    `<path d="M-44 0v-36h88v36z" fill="${mix(p.near, '#6a4020', 0.5)}"/><path d="M-44 -36c0-30 88-30 88 0z" fill="${mix(p.near, '#7a4a24', 0.5)}"/>` +
    `<path d="M-30 0v-58M30 0v-58M-44 -36h88" stroke="${p.accent}" stroke-width="5" fill="none"/><rect x="-6" y="-42" width="12" height="14" fill="${p.accent}"/>`,
  cactus: (p) =>
    `<rect x="-10" y="-100" width="20" height="100" rx="10" fill="${mix(p.litNear, '#3f7a3a', 0.5)}"/>` +
    `<path d="M-10 -44h-16a6 6 0 0 1-6-6v-26a6 6 0 0 1 12 0v20h10z M10 -58h16a6 6 0 0 0 6-6v-18a6 6 0 0 0-12 0v12h-10z" fill="${mix(p.litNear, '#3f7a3a', 0.5)}"/>`,
  figure: (p) =>
    `<path d="M-22 0c2-30 6-60 14-72h16c8 12 12 42 14 72z" fill="${p.litNear}"/><circle cx="0" cy="-82" r="12" fill="${p.litNear}"/>` +
    `<path d="M-14 -78c0-18 28-18 28 0l-4 8h-20z" fill="${mix(p.litNear, p.accent, 0.15)}"/>`,
  car: (p) =>
    glow(62, -24, 22, p.glow, 0.4) +
    `<path d="M-64 -10v-20l20-4 16-22h52l22 22 18 4v20z" fill="${p.litNear}"/><path d="M-22 -36l12-16h18v16z M14 -36v-16h12l14 16z" fill="${mix(p.skyHorizon, p.litNear, 0.4)}"/>` +
    `<circle cx="-38" cy="-8" r="11" fill="#111"/><circle cx="38" cy="-8" r="11" fill="#111"/><rect x="58" y="-28" width="8" height="6" fill="${p.glow}"/>`,
};

/** One thing at (x, y) with its base at y, about 100 × scale pixels tall; `flip` mirrors it. */
export function drawThing(
  thing: Thing,
  x: number,
  y: number,
  scale: number,
  palette: ScenePalette,
  flip = false,
): string {
  const body = DRAWERS[thing](palette);
  if (!body) return '';
  const sx = flip ? -scale : scale;
  return `<g transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${sx.toFixed(3)} ${scale.toFixed(3)})">${body}</g>`;
}
