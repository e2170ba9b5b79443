// Colours of a scene: each genre has its own palette, the time of day sets the sky and how much
// light reaches the ground, and the weather greys or whitens both. Everything is mixed from these
// few tables so two scenes of different genre, hour or weather differ at a glance.
import type { Genre, TimeOfDay, Weather } from './analysis';

interface GenrePalette {
  /** Mixed into the sky. */
  tint: string;
  ground: string;
  /** Far hills, skylines, distant shapes. */
  far: string;
  /** Silhouettes in front. */
  near: string;
  accent: string;
  /** Lit windows, flames, lantern light. */
  glow: string;
  /** A wash over the whole picture, with its opacity. */
  wash: string;
  washOpacity: number;
}

const GENRE_PALETTES: Record<Genre, GenrePalette> = {
  fantasy: {
    tint: '#7aa0ff',
    ground: '#3f6b3a',
    far: '#5b6f9a',
    near: '#1f2e28',
    accent: '#e7c45a',
    glow: '#ffd27a',
    wash: '#2a3cff',
    washOpacity: 0.05,
  },
  scifi: {
    tint: '#3fd0ff',
    ground: '#2b3344',
    far: '#3c4a6b',
    near: '#10151f',
    accent: '#35f0ff',
    glow: '#6ff7ff',
    wash: '#0060ff',
    washOpacity: 0.1,
  },
  mystery: {
    tint: '#8a94a8',
    ground: '#3a3f47',
    far: '#525a66',
    near: '#16191e',
    accent: '#d9b36a',
    glow: '#ffcf7a',
    wash: '#203040',
    washOpacity: 0.14,
  },
  horror: {
    tint: '#8a2030',
    ground: '#2a1e22',
    far: '#3b2a33',
    near: '#0c0709',
    accent: '#b01c2e',
    glow: '#ff6a3d',
    wash: '#400010',
    washOpacity: 0.2,
  },
  western: {
    tint: '#f0a050',
    ground: '#b07a45',
    far: '#a0603c',
    near: '#3a2214',
    accent: '#f2c067',
    glow: '#ffc46b',
    wash: '#c06020',
    washOpacity: 0.12,
  },
  postapocalyptic: {
    tint: '#b0a060',
    ground: '#6e6048',
    far: '#7d6a52',
    near: '#241e16',
    accent: '#d8a03a',
    glow: '#ffb347',
    wash: '#6a5a20',
    washOpacity: 0.16,
  },
  comedy: {
    tint: '#ffd35a',
    ground: '#6cc24a',
    far: '#7fb3e8',
    near: '#3a4a8a',
    accent: '#ff5fa2',
    glow: '#fff07a',
    wash: '#ffcc00',
    washOpacity: 0.05,
  },
  historical: {
    tint: '#c8a878',
    ground: '#7d6a45',
    far: '#8a7a60',
    near: '#2e2418',
    accent: '#b8863b',
    glow: '#ffd08a',
    wash: '#704a20',
    washOpacity: 0.18,
  },
  romance: {
    tint: '#ff9ec4',
    ground: '#8fb06a',
    far: '#c59ab8',
    near: '#4a2a40',
    accent: '#ff6f91',
    glow: '#ffd1dc',
    wash: '#ff80b0',
    washOpacity: 0.1,
  },
  thriller: {
    tint: '#4a6a7a',
    ground: '#2c3236',
    far: '#3e4a52',
    near: '#0e1114',
    accent: '#e03a3a',
    glow: '#ffe08a',
    wash: '#002030',
    washOpacity: 0.16,
  },
};

interface SkyLight {
  top: string;
  horizon: string;
  /** The sun's colour (the moon's at night). */
  light: string;
  /** How much light reaches the ground, 0 to 1. */
  ambient: number;
}

const SKIES: Record<TimeOfDay, SkyLight> = {
  dawn: { top: '#4a5a9a', horizon: '#ffb38a', light: '#ffd9a0', ambient: 0.75 },
  day: { top: '#3a8ee8', horizon: '#bfe3ff', light: '#fff6d0', ambient: 1 },
  dusk: { top: '#2b2a5a', horizon: '#ff7a4a', light: '#ff9a50', ambient: 0.55 },
  night: { top: '#050818', horizon: '#1d2648', light: '#e8ecff', ambient: 0.3 },
};

export interface ScenePalette extends GenrePalette {
  skyTop: string;
  skyHorizon: string;
  light: string;
  ambient: number;
  /** Ground lit for the hour and weather. */
  litGround: string;
  litFar: string;
  litNear: string;
}

function parse(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: [number, number, number]): string {
  return `#${rgb
    .map((c) =>
      Math.max(0, Math.min(255, Math.round(c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** `amount` of b over a. */
export function mix(a: string, b: string, amount: number): string {
  const [ar, ag, ab] = parse(a);
  const [br, bg, bb] = parse(b);
  return toHex([ar + (br - ar) * amount, ag + (bg - ag) * amount, ab + (bb - ab) * amount]);
}

export function darken(color: string, amount: number): string {
  return mix(color, '#000000', amount);
}

export function lighten(color: string, amount: number): string {
  return mix(color, '#ffffff', amount);
}

const NIGHT_BLUE = '#101838';

export function scenePalette(genre: Genre, time: TimeOfDay, weather: Weather): ScenePalette {
  const genrePalette = GENRE_PALETTES[genre];
  const sky = SKIES[time];
  let skyTop = mix(sky.top, genrePalette.tint, 0.22);
  let skyHorizon = mix(sky.horizon, genrePalette.tint, 0.18);
  let ambient = sky.ambient;
  if (weather === 'rain' || weather === 'storm') {
    // Overcast: grey the sky and take light away, more for a storm.
    const grey = weather === 'storm' ? '#2c3038' : '#5a6470';
    skyTop = mix(skyTop, grey, 0.65);
    skyHorizon = mix(skyHorizon, grey, 0.55);
    ambient *= weather === 'storm' ? 0.6 : 0.8;
  } else if (weather === 'fog') {
    skyTop = mix(skyTop, '#b8bec4', 0.45);
    skyHorizon = mix(skyHorizon, '#d0d4d8', 0.6);
  } else if (weather === 'snow') {
    skyTop = mix(skyTop, '#c8d0dc', 0.35);
    skyHorizon = mix(skyHorizon, '#eef2f8', 0.45);
  }
  const shade = (color: string) => mix(darken(color, (1 - ambient) * 0.85), NIGHT_BLUE, time === 'night' ? 0.25 : 0);
  const ground = weather === 'snow' ? mix(genrePalette.ground, '#eef3f8', 0.75) : genrePalette.ground;
  return {
    ...genrePalette,
    skyTop,
    skyHorizon,
    light: sky.light,
    ambient,
    litGround: shade(ground),
    litFar: mix(shade(genrePalette.far), skyHorizon, weather === 'fog' ? 0.55 : 0.25),
    litNear: shade(genrePalette.near),
  };
}
