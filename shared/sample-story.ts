// The built-in sample story: what GET /api/shared/test answers, and what the shared story page falls
// back to when neither endpoint can be reached. Its title says it is a sample, so it can never pass
// for the story a reader was sent. Scenes are small inline SVGs (data URLs, allowed by the CSP).
import type { SharedStory } from './schemas/sharing';

function scene(sky: string, ground: string, accent: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180">` +
    `<rect width="320" height="180" fill="${sky}"/>` +
    `<circle cx="250" cy="48" r="22" fill="${accent}" opacity="0.85"/>` +
    `<path d="M0 130 Q80 100 160 128 T320 120 V180 H0 Z" fill="${ground}"/>` +
    `<rect x="70" y="70" width="18" height="62" fill="#e8e2d0"/><polygon points="66,70 92,70 79,54" fill="${accent}"/>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export const SAMPLE_STORY: SharedStory = {
  shareId: 'test',
  title: "Sample Story: The Lighthouse at Gull's End",
  messages: [
    {
      role: 'user',
      content: "I am the new keeper of the lighthouse at Gull's End, and tonight the lamp will not light.",
    },
    {
      role: 'assistant',
      content:
        'Wind claws at the iron door as you climb the last of the spiral stairs. The great lens waits in the dark, cold as river stone, and the wick you trimmed an hour ago lies untouched by any flame. Far below, a bell rings out on the water where no ship should be.',
      image: scene('#1b2440', '#2f3b2a', '#f2c14e'),
    },
    { role: 'user', content: 'I light a match and hold it to the wick.' },
    {
      role: 'assistant',
      content:
        'The match flares and gutters. For a heartbeat the lens drinks the little light and throws it back a hundredfold, not out to sea but inward, onto a door in the lamp room wall that was not there this morning. Its brass handle is warm.',
    },
    { role: 'user', content: 'I open the door.' },
    {
      role: 'assistant',
      content:
        'Salt air rushes past you, though the door opens onto a staircase going down, deeper than the tower is tall. Lanterns hang from hooks all the way to the bottom, each one lit, each one labelled in a careful hand with the name of a keeper who came before you. The last hook is empty.',
      image: scene('#2a1e3a', '#3a2f24', '#e07a5f'),
    },
  ],
};
