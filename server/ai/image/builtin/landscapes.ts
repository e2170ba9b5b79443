// Open land behind a scene: the sea with waves, a far ship and a shore, layered pine forest,
// mountain ridges with snow caps, dunes, rolling plains, and a planet-lit sky over a cratered moon.
import { darken, lighten, mix } from './palette';
import { FRAME_HEIGHT as H, FRAME_WIDTH as W, n, ridge, type Backdrop, type BackdropContext } from './frame';
import type { Random } from './random';
import { drawThing } from './silhouettes';

export function sea(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const top = mix(p.skyHorizon, '#1a4a70', 0.45);
  const deep = darken(mix(p.litFar, '#0a2a48', 0.6), 0.3);
  let waves = '';
  for (let y = plan.horizon + 10, row = 0; y < H; row += 1, y += 8 + row * 3) {
    const amp = 1.5 + row * 0.8;
    const len = 18 + row * 6;
    let d = `M${n(-rng.between(0, len))} ${n(y)}`;
    for (let x = 0; x < W + len; x += len) d += `q${n(len / 4)} ${n(-amp)} ${n(len / 2)} 0t${n(len / 2)} 0`;
    waves += d;
  }
  const glitterWidth = ctx.light.night ? 30 : 60;
  const glitter = `<path d="M${n(ctx.light.x - 8)} ${plan.horizon}h16L${n(ctx.light.x + glitterWidth)} ${H}H${n(ctx.light.x - glitterWidth)}Z" fill="${p.light}" opacity="0.18"/>`;
  const shore = mix(p.litGround, darken('#c8b080', (1 - p.ambient) * 0.8), 0.5);
  const farShip = drawThing('ship', rng.between(120, W - 120), plan.horizon + 14, 0.32, p, rng.next() < 0.5);
  return {
    svg:
      `<linearGradient id="sea" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${deep}"/></linearGradient>` +
      `<rect x="0" y="${plan.horizon}" width="${W}" height="${H - plan.horizon}" fill="url(#sea)"/>${glitter}` +
      `<path d="${waves}" fill="none" stroke="${lighten(top, 0.35)}" stroke-width="1.6" opacity="0.45"/>${farShip}` +
      `<path d="M-10 ${H}V520C200 496 520 512 700 506S960 490 1034 500V${H}Z" fill="${shore}"/>`,
    ground: [528, 566],
    water: [plan.horizon + 40, 470],
  };
}

function pineRow(rng: Random, base: number, height: number, color: string, count: number): string {
  let d = '';
  for (let i = 0; i < count; i += 1) {
    const x = (i + rng.between(-0.3, 0.3)) * (W / (count - 1));
    const h = height * rng.between(0.7, 1.25);
    const w = h * 0.32;
    const y = base + rng.between(-8, 8);
    d += `M${n(x - w)} ${n(y)}L${n(x)} ${n(y - h)}L${n(x + w)} ${n(y)}Z`;
    d += `M${n(x - w * 0.7)} ${n(y - h * 0.35)}L${n(x)} ${n(y - h * 1.1)}L${n(x + w * 0.7)} ${n(y - h * 0.35)}Z`;
  }
  return `<path d="${d}" fill="${color}"/>`;
}

export function forest(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const rows = [0, 1, 2]
    .map((row) =>
      pineRow(rng, plan.horizon + 30 + row * 45, 90 + row * 45, mix(p.litFar, p.litNear, row / 2.2), 16 - row * 3),
    )
    .join('');
  return {
    svg:
      ridge(rng, plan.horizon, 40, 120, mix(p.litFar, p.skyHorizon, 0.2)) +
      rows +
      ridge(rng, 485, 12, 140, p.litGround),
    ground: [495, 565],
    water: null,
  };
}

export function mountains(ctx: BackdropContext): Backdrop {
  const { rng, palette: p } = ctx;
  const points: Array<[number, number]> = [];
  for (let x = -60; x < W + 120; x += rng.between(90, 160)) points.push([x, rng.between(130, 300)]);
  let far = `M-60 ${H}`;
  let caps = '';
  points.forEach(([x, y], i) => {
    far += `L${n(x)} ${n(y)}`;
    if (i % 2 === 0) {
      far += `L${n(x + rng.between(40, 70))} ${n(y + rng.between(90, 150))}`;
      if (y < 230) caps += `M${n(x - 24)} ${n(y + 34)}L${n(x)} ${n(y)}L${n(x + 22)} ${n(y + 30)}l-10 -6l-8 8l-8-10z`;
    }
  });
  far += `L${W + 120} ${H}Z`;
  return {
    svg:
      `<path d="${far}" fill="${mix(p.litFar, p.skyHorizon, 0.3)}"/><path d="${caps}" fill="${lighten(p.skyHorizon, 0.6)}"/>` +
      ridge(rng, 390, 120, 70, p.litFar, true) +
      ridge(rng, 480, 40, 150, p.litGround),
    ground: [495, 565],
    water: null,
  };
}

export function space(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const bigX = rng.pick([220, 800]);
  const bigR = rng.between(90, 150);
  const planet = mix(p.accent, p.tint, 0.5);
  const smallX = bigX < 500 ? rng.between(650, 900) : rng.between(120, 380);
  let craters = '';
  for (let i = 0; i < 8; i += 1) {
    const x = rng.between(0, W);
    const y = rng.between(515, 570);
    const r = rng.between(8, 26);
    craters += `M${n(x - r)} ${n(y)}a${n(r)} ${n(r / 3)} 0 1 0 ${n(2 * r)} 0a${n(r)} ${n(r / 3)} 0 1 0 ${n(-2 * r)} 0z`;
  }
  const surface = mix('#5a5a68', p.litGround, 0.4);
  return {
    svg:
      `<radialGradient id="nebula"><stop offset="0" stop-color="${p.accent}" stop-opacity="0.45"/><stop offset="1" stop-color="${p.accent}" stop-opacity="0"/></radialGradient>` +
      `<ellipse cx="${n(rng.between(300, 700))}" cy="${n(rng.between(150, 300))}" rx="420" ry="170" fill="url(#nebula)"/>` +
      `<circle cx="${bigX}" cy="200" r="${n(bigR)}" fill="${planet}"/>` +
      `<circle cx="${n(bigX + bigR * 0.35)}" cy="${n(200 + bigR * 0.25)}" r="${n(bigR)}" fill="#000" opacity="0.45"/>` +
      `<ellipse cx="${bigX}" cy="200" rx="${n(bigR * 1.7)}" ry="${n(bigR * 0.32)}" fill="none" stroke="${lighten(planet, 0.4)}" stroke-width="6" opacity="0.7" transform="rotate(-14 ${bigX} 200)"/>` +
      `<circle cx="${n(smallX)}" cy="${n(rng.between(90, 160))}" r="${n(rng.between(22, 40))}" fill="${lighten(p.far, 0.3)}"/>` +
      ridge(rng, plan.horizon, 30, 160, surface) +
      `<path d="${craters}" fill="${darken(surface, 0.3)}"/>`,
    ground: [512, 566],
    water: null,
  };
}

export function desert(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const sand = mix(p.litGround, darken('#e0b068', (1 - p.ambient) * 0.85), 0.7);
  return {
    svg:
      ridge(rng, plan.horizon, 40, 220, mix(sand, p.skyHorizon, 0.35)) +
      ridge(rng, 445, 55, 260, sand) +
      ridge(rng, 505, 45, 300, darken(sand, 0.12)),
    ground: [505, 566],
    water: null,
  };
}

export function plains(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  let grass = '';
  for (let i = 0; i < 70; i += 1) {
    const x = rng.between(0, W);
    const y = rng.between(450, H);
    grass += `M${n(x)} ${n(y)}l-3 -10M${n(x)} ${n(y)}l3 -12`;
  }
  return {
    svg:
      ridge(rng, plan.horizon, 45, 200, p.litFar) +
      ridge(rng, 440, 35, 240, mix(p.litGround, p.litFar, 0.3)) +
      ridge(rng, 470, 15, 300, p.litGround) +
      `<path d="${grass}" stroke="${darken(p.litGround, 0.3)}" stroke-width="2"/>`,
    ground: [480, 566],
    water: null,
  };
}
