// The frame every scene is drawn in (1024 × 576, scaled to the asked size) and the small drawing
// helpers the backdrops share: number formatting that keeps the SVG short, and bands of land.
import type { ScenePalette } from './palette';
import type { Random } from './random';

export const FRAME_WIDTH = 1024;
export const FRAME_HEIGHT = 576;

export interface Opening {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface BackdropPlan {
  horizon: number;
  /** Indoors and in caves, the window or mouth the sky shows through; null outdoors. */
  opening: Opening | null;
}

export interface Backdrop {
  svg: string;
  /** The band (far y, near y) where things stand. */
  ground: [number, number];
  /** The band where ships sail, or null with no open water. */
  water: [number, number] | null;
  /** A table top small things stand on indoors: left x, right x, y. */
  table?: [number, number, number];
}

export interface BackdropContext {
  rng: Random;
  palette: ScenePalette;
  plan: BackdropPlan;
  /** Where the sun or moon is, for reflections and lit windows. */
  light: { x: number; y: number; night: boolean };
}

const W = FRAME_WIDTH;
const H = FRAME_HEIGHT;

export const n = (value: number) => value.toFixed(1);

/** A band of land from `base` up by up to `amp`, closed at the bottom; jagged for rock, rounded for hills. */
export function ridge(rng: Random, base: number, amp: number, step: number, color: string, jagged = false): string {
  const points: Array<[number, number]> = [];
  for (let x = -40; x <= W + 40 + 2 * step; x += step * rng.between(0.7, 1.3))
    points.push([x, base - amp * rng.next()]);
  let d = `M${n(points[0][0])} ${n(points[0][1])}`;
  for (let i = 1; i < points.length; i += 1) {
    const [x, y] = points[i];
    if (jagged) d += `L${n(x)} ${n(y)}`;
    else {
      const [px, py] = points[i - 1];
      d += `Q${n(px)} ${n(py)} ${n((px + x) / 2)} ${n((py + y) / 2)}`;
    }
  }
  return `<path d="${d}L${W + 60} ${H}L-40 ${H}Z" fill="${color}"/>`;
}

export function groundRect(top: number, color: string): string {
  return `<rect x="0" y="${top}" width="${W}" height="${H - top}" fill="${color}"/>`;
}
