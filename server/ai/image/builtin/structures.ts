// Built and enclosed places behind a scene: a city skyline and a village with lit windows, broken
// columns, a castle, a cave mouth the sky shows through, and a tavern room with a window and a fire.
// Windows light up more the darker the hour, which is most of what tells night from day here.
import { darken, lighten, mix } from './palette';
import {
  FRAME_HEIGHT as H,
  FRAME_WIDTH as W,
  groundRect,
  n,
  ridge,
  type Backdrop,
  type BackdropContext,
} from './frame';
import type { Random } from './random';
import { drawThing } from './silhouettes';

/** Windows on a building face: lit ones glow, the rest stay dark; one path each keeps rendering cheap. */
function windows(
  rng: Random,
  x: number,
  top: number,
  w: number,
  bottom: number,
  litShare: number,
): { lit: string; dark: string } {
  let lit = '';
  let dark = '';
  for (let y = top + 12; y < bottom - 16; y += 20) {
    for (let wx = x + 8; wx < x + w - 12; wx += 15) {
      const cell = `M${n(wx)} ${n(y)}h7v10h-7z`;
      if (rng.next() < litShare) lit += cell;
      else dark += cell;
    }
  }
  return { lit, dark };
}

function litShareFor(ctx: BackdropContext): number {
  return ctx.light.night ? 0.55 : ctx.palette.ambient < 0.8 ? 0.35 : 0.08;
}

export function city(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  let far = '';
  for (let x = -10; x < W; x += rng.between(40, 90)) {
    const h = rng.between(120, 300);
    far += `M${n(x)} ${plan.horizon}v${n(-h)}h${n(rng.between(36, 80))}V${plan.horizon}Z`;
  }
  let near = '';
  let lit = '';
  let dark = '';
  const share = litShareFor(ctx);
  for (let x = -20; x < W;) {
    const w = rng.between(70, 130);
    const top = plan.horizon + 40 - rng.between(90, 230);
    near += `M${n(x)} ${plan.horizon + 50}V${n(top)}h${n(w)}V${plan.horizon + 50}Z`;
    const lights = windows(rng, x, top, w, plan.horizon + 50, share);
    lit += lights.lit;
    dark += lights.dark;
    x += w + rng.between(4, 18);
  }
  const street = darken(p.litGround, 0.2);
  let lanes = '';
  for (let x = rng.between(0, 60); x < W; x += 120) lanes += `M${n(x)} 540h60v5h-60z`;
  return {
    svg:
      `<path d="${far}" fill="${mix(p.litFar, p.skyHorizon, 0.25)}"/><path d="${near}" fill="${mix(p.litNear, p.litFar, 0.35)}"/>` +
      `<path d="${dark}" fill="${darken(p.litFar, 0.35)}"/><path d="${lit}" fill="${p.glow}"/>` +
      groundRect(plan.horizon + 50, p.litGround) +
      `<rect x="0" y="505" width="${W}" height="${H - 505}" fill="${street}"/>` +
      `<path d="${lanes}" fill="${p.accent}" opacity="0.6"/>`,
    ground: [482, 566],
    water: null,
  };
}

export function ruins(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const stone = mix(p.litFar, darken('#b0a898', (1 - p.ambient) * 0.8), 0.45);
  let columns = '';
  const count = rng.int(4, 7);
  for (let i = 0; i < count; i += 1) {
    const x = 60 + (i + rng.between(0, 0.5)) * ((W - 120) / count);
    const base = rng.between(440, 480);
    const h = rng.between(110, 250);
    const w = rng.between(30, 44);
    const broken = rng.next() < 0.6;
    const topY = base - h;
    const top = broken
      ? `l${n(w * 0.3)} ${n(rng.between(-18, 6))}l${n(w * 0.3)} ${n(rng.between(4, 22))}l${n(w * 0.4)} ${n(rng.between(-14, 4))}`
      : `h${n(w)}`;
    columns += `M${n(x)} ${n(base)}V${n(topY)}${top}V${n(base)}Z`;
    if (!broken) columns += `M${n(x - 8)} ${n(topY)}h${n(w + 16)}v-12h${n(-w - 16)}z`;
    columns += `M${n(x - 6)} ${n(base)}h${n(w + 12)}v-10h${n(-w - 12)}z`;
  }
  let rubble = '';
  for (let i = 0; i < 9; i += 1) {
    const x = rng.between(0, W);
    const y = rng.between(470, 560);
    rubble += `M${n(x)} ${n(y)}l${n(rng.between(8, 20))} -${n(rng.between(6, 16))}l${n(rng.between(8, 24))} ${n(rng.between(2, 10))}l-4 ${n(rng.between(4, 10))}z`;
  }
  const archX = rng.between(200, 700);
  const arch = `<path d="M${n(archX)} 470v-150a70 70 0 0 1 140 0v30h-26v-30a44 44 0 0 0-88 0v150z" fill="${stone}"/>`;
  return {
    svg:
      ridge(rng, plan.horizon, 50, 140, p.litFar) +
      groundRect(440, p.litGround) +
      arch +
      `<path d="${columns}" fill="${stone}"/><path d="${rubble}" fill="${darken(stone, 0.2)}"/>`,
    ground: [480, 566],
    water: null,
  };
}

export function castle(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const x = rng.between(330, 530);
  const base = 430;
  const wall = mix(p.litFar, p.litNear, 0.45);
  const merlons = (left: number, width: number, top: number) => {
    let d = '';
    for (let m = left; m < left + width - 6; m += 16) d += `M${n(m)} ${top}h9v-12h-9z`;
    return d;
  };
  const towers = [x - 70, x + 180].map((tx) => `M${n(tx)} ${base}V190h50V${base}Z${merlons(tx, 50, 190)}`).join('');
  const body = `M${n(x - 20)} ${base}V260h220V${base}Z${merlons(x - 20, 220, 260)}M${n(x + 50)} ${base}V230h80V${base}Z`;
  const roofs = [x - 70, x + 180].map((tx) => `M${n(tx - 6)} 178L${n(tx + 25)} 110L${n(tx + 56)} 178Z`).join('');
  const share = litShareFor(ctx) + 0.2;
  let lit = '';
  for (const [wx, wy] of [
    [x - 52, 240],
    [x + 198, 240],
    [x - 52, 320],
    [x + 198, 320],
    [x + 30, 300],
    [x + 140, 300],
    [x + 82, 260],
  ]) {
    if (rng.next() < share) lit += `M${n(wx)} ${wy}h12v-14a6 6 0 0 0-12 0z`;
  }
  return {
    svg:
      ridge(rng, plan.horizon, 50, 160, p.litFar) +
      groundRect(base - 4, p.litGround) +
      `<path d="${towers}${body}" fill="${wall}"/><path d="${roofs}" fill="${mix(p.accent, p.litNear, 0.55)}"/>` +
      `<path d="M${n(x + 66)} ${base}v-50a24 24 0 0 1 48 0v50z" fill="${darken(wall, 0.6)}"/><path d="${lit}" fill="${p.glow}"/>` +
      `<path d="M${n(x + 66)} ${base}L${n(x + 10)} ${H}H${n(x + 170)}L${n(x + 114)} ${base}Z" fill="${lighten(p.litGround, 0.12)}"/>`,
    ground: [470, 566],
    water: null,
  };
}

export function village(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const share = litShareFor(ctx) + 0.25;
  let walls = '';
  let roofs = '';
  let lit = '';
  let smoke = '';
  for (let x = rng.between(-20, 40); x < W - 40; x += rng.between(120, 190)) {
    const base = rng.between(440, 470);
    const w = rng.between(70, 110);
    const h = rng.between(45, 75);
    walls += `M${n(x)} ${n(base)}v${n(-h)}h${n(w)}v${n(h)}z M${n(x + w * 0.65)} ${n(base - h - 18)}h12v24h-12z`;
    roofs += `M${n(x - 10)} ${n(base - h)}L${n(x + w / 2)} ${n(base - h - w * 0.5)}L${n(x + w + 10)} ${n(base - h)}Z`;
    if (rng.next() < share) lit += `M${n(x + 12)} ${n(base - h + 14)}h14v14h-14z`;
    if (rng.next() < share) lit += `M${n(x + w - 26)} ${n(base - h + 14)}h14v14h-14z`;
    if (rng.next() < share) lit += `M${n(x + w / 2 - 8)} ${n(base)}v-24h16v24z`;
    for (let s = 0; s < 3; s += 1)
      smoke += `<circle cx="${n(x + w * 0.65 + 6 + s * 9)}" cy="${n(base - h - 30 - s * 18)}" r="${6 + s * 4}"/>`;
  }
  return {
    svg:
      ridge(rng, plan.horizon, 45, 180, p.litFar) +
      groundRect(430, p.litGround) +
      `<path d="${walls}" fill="${mix(p.litFar, lighten(p.litNear, 0.3), 0.5)}"/><path d="${roofs}" fill="${mix(p.accent, p.litNear, 0.6)}"/>` +
      `<path d="${lit}" fill="${p.glow}"/><g fill="#c8ccd0" opacity="0.35">${smoke}</g>`,
    ground: [482, 566],
    water: null,
  };
}

export function cave(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const o = plan.opening!;
  const rock = mix(p.near, '#2a2622', 0.4);
  const cy = o.y + o.h / 2;
  const mouth = `M0 0H${W}V${H}H0Z M${n(o.x)} ${n(cy)}a${n(o.w / 2)} ${n(o.h / 2)} 0 1 0 ${n(o.w)} 0a${n(o.w / 2)} ${n(o.h / 2)} 0 1 0 ${n(-o.w)} 0z`;
  let drips = '';
  for (let x = rng.between(0, 40); x < W; x += rng.between(40, 90)) {
    const len = rng.between(40, 150);
    drips += `M${n(x)} 0l${n(rng.between(8, 18))} ${n(len)}l${n(rng.between(8, 18))} ${n(-len)}z`;
  }
  let mites = '';
  for (let x = rng.between(0, 60); x < W; x += rng.between(90, 180)) {
    const len = rng.between(30, 90);
    mites += `M${n(x)} 500l${n(rng.between(10, 20))} ${n(-len)}l${n(rng.between(10, 20))} ${n(len)}z`;
  }
  return {
    svg:
      ridge(rng, plan.horizon + 40, 40, 100, mix(p.litFar, p.skyHorizon, 0.2)) +
      `<linearGradient id="rock" x2="0" y2="1"><stop offset="0" stop-color="${darken(rock, 0.55)}"/><stop offset="${n(cy / H)}" stop-color="${lighten(rock, 0.1)}"/><stop offset="1" stop-color="${darken(rock, 0.45)}"/></linearGradient>` +
      `<path d="${mouth}" fill="url(#rock)" fill-rule="evenodd"/><path d="${drips}" fill="${darken(rock, 0.35)}"/>` +
      `<path d="M0 ${H}V480C300 460 700 470 ${W} 482V${H}Z" fill="${darken(rock, 0.25)}"/><path d="${mites}" fill="${darken(rock, 0.4)}"/>`,
    ground: [500, 566],
    water: null,
  };
}

export function interior(ctx: BackdropContext): Backdrop {
  const { rng, palette: p, plan } = ctx;
  const o = plan.opening!;
  // Indoors the firelight, not the sky, lights the room, so the walls stay warm at any hour.
  const wood = mix(p.near, '#7a5030', 0.55);
  let planks = '';
  for (let x = 0; x < W; x += 48) planks += `M${x} 0V470`;
  let boards = '';
  for (let y = 490; y < H; y += 24) boards += `M0 ${y}H${W}`;
  const fireX = o.x < 400 ? rng.between(700, 820) : rng.between(110, 260);
  const fire = drawThing('torch', fireX + 70, 455, 0.75, p);
  const tableX = o.x < 400 ? rng.between(360, 480) : rng.between(460, 560);
  return {
    svg:
      `<path d="M0 0H${W}V470H0Z M${o.x} ${o.y}h${o.w}v${o.h}h${-o.w}z" fill="${wood}" fill-rule="evenodd"/>` +
      `<path d="${planks}" stroke="${darken(wood, 0.3)}" stroke-width="2"/>` +
      `<path d="M${o.x - 10} ${o.y - 10}h${o.w + 20}v${o.h + 20}h${-o.w - 20}z M${o.x} ${o.y}h${o.w}v${o.h}h${-o.w}z" fill="${darken(wood, 0.45)}" fill-rule="evenodd"/>` +
      `<path d="M${o.x + o.w / 2 - 4} ${o.y}h8v${o.h}h-8z M${o.x} ${o.y + o.h / 2 - 4}h${o.w}v8h${-o.w}z" fill="${darken(wood, 0.45)}"/>` +
      `<rect x="0" y="0" width="${W}" height="34" fill="${darken(wood, 0.5)}"/>` +
      `<rect x="0" y="470" width="${W}" height="${H - 470}" fill="${darken(wood, 0.35)}"/><path d="${boards}" stroke="${darken(wood, 0.55)}" stroke-width="2"/>` +
      `<path d="M${n(fireX)} 470v-170h140v170h-28v-90a42 42 0 0 0-84 0v90z" fill="${mix('#6a6460', p.near, 0.4)}"/>${fire}` +
      `<path d="M${n(tableX)} 430h220v14h-220z M${n(tableX + 14)} 444h12v60h-12z M${n(tableX + 194)} 444h12v60h-12z" fill="${darken(wood, 0.6)}"/>`,
    ground: [500, 566],
    water: null,
    table: [tableX + 30, tableX + 190, 430],
  };
}
