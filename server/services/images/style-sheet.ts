// Each story's visual style sheet. It is filled once, when the story's first picture is painted:
// the art style from the genre mix and content rating, the player's look and the premise's named
// characters from the narrator model. Later scenes that name someone new extend it. The owner can
// edit it; an edit applies to the next picture. The narrator call is a small JSON request; an
// unusable answer (or a failed call) falls back to the offline heuristics, so a picture never
// waits on it failing.
import { randomInt } from 'node:crypto';
import { dominantGenre, artStyleFor, findNames, lookFor, playerLookFor } from '@server/ai/image/style-heuristics';
import { NarratorError, type NarratorProvider } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { VisualsRecord } from '@server/db/repositories/images';
import { STYLE_SHEET_MAX_CHARACTERS, styleCharacterSchema, type StyleCharacter } from '@shared/schemas/images';
import type { ContentRating } from '@shared/schemas/preferences';
import { z } from 'zod';
import { recordNarratorCall } from '../narrator-usage';
import type { Log } from '../story-memory';

export const STYLE_SYSTEM_PROMPT =
  'You keep the visual style sheet of an illustrated story, so that every picture draws the same people the same way. Describe only what the text says or clearly implies; where it says nothing, choose plain, specific details. Answer with JSON only.';

const answerSchema = z.object({
  player: z.string().max(400).optional(),
  characters: z.array(z.unknown()).default([]),
});

export function styleUserPrompt(task: { premise: string; scene: string; known: string[]; describePlayer: boolean }): string {
  return [
    `Story premise: ${task.premise}`,
    `Scene: ${task.scene}`,
    task.known.length > 0 ? `Already described: ${task.known.join(', ')}.` : '',
    `${task.describePlayer ? 'Describe the player character ("you") in one short phrase, and every' : 'Describe every'} other named character who appears above and is not already described: face, hair and clothes, under 15 words each.`,
    `Answer exactly: {${task.describePlayer ? '"player": "...", ' : ''}"characters": [{"name": "...", "face": "...", "hair": "...", "clothes": "..."}]}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The model's JSON, leniently: the first {...} block, characters that pass the schema (trimmed to size). */
export function parseLooks(text: string): { player?: string; characters: StyleCharacter[] } | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const answer = answerSchema.parse(JSON.parse(text.slice(start, end + 1)));
    const characters = answer.characters.flatMap((raw) => {
      if (typeof raw !== 'object' || raw === null) return [];
      const clipped = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v.slice(0, 160) : v]));
      const parsed = styleCharacterSchema.safeParse(clipped);
      return parsed.success ? [parsed.data] : [];
    });
    return { player: answer.player?.trim().slice(0, 300) || undefined, characters };
  } catch {
    return null;
  }
}

export function createStyleSheets(deps: { repos: Repositories; narrator: NarratorProvider; now: () => Date; log: Log }) {
  const { repos, narrator } = deps;

  async function askNarrator(userId: number, storyId: number, task: { premise: string; scene: string; known: string[]; describePlayer: boolean }) {
    const genre = dominantGenre(task.premise);
    const heuristic = () => ({
      player: task.describePlayer ? playerLookFor(genre) : undefined,
      characters: findNames(`${task.premise}\n${task.scene}`)
        .filter((n) => !task.known.some((k) => k.toLowerCase() === n.toLowerCase()))
        .map((n) => lookFor(n, genre)),
    });
    const request = {
      system: STYLE_SYSTEM_PROMPT,
      messages: [{ role: 'user' as const, content: styleUserPrompt(task) }],
      maxOutputTokens: 400,
      temperature: 0.3,
      task: { kind: 'style' as const, ...task },
    };
    try {
      const result = await narrator.generate(request);
      await recordNarratorCall(repos, narrator, { userId, storyId, kind: 'style', request, result, now: deps.now() });
      return parseLooks(result.text) ?? heuristic();
    } catch (error) {
      if (!(error instanceof NarratorError)) throw error;
      deps.log.warn({ storyId, failure: error.failure }, 'style sheet call failed; using the offline heuristics');
      return heuristic();
    }
  }

  return {
    /** The story's sheet, filled on first use, extended with characters this scene names for the first time. */
    async forScene(input: { userId: number; storyId: number; premise: string; scene: string; rating: ContentRating }): Promise<VisualsRecord> {
      const existing = await repos.images.findVisuals(input.storyId);
      if (!existing) {
        const looks = await askNarrator(input.userId, input.storyId, { premise: input.premise, scene: input.scene, known: [], describePlayer: true });
        const sheet = {
          artStyle: artStyleFor(input.premise, input.rating),
          player: looks.player ?? playerLookFor(dominantGenre(input.premise)),
          characters: looks.characters.slice(0, STYLE_SHEET_MAX_CHARACTERS),
        };
        // A random seed per story (within what every painter accepts) keeps its pictures alike.
        return repos.images.createVisuals(input.storyId, sheet, randomInt(0, 2 ** 31 - 1), deps.now());
      }
      const known = existing.characters.map((c) => c.name);
      const fresh = findNames(input.scene).filter((n) => !known.some((k) => k.toLowerCase() === n.toLowerCase()));
      if (fresh.length === 0 || existing.characters.length >= STYLE_SHEET_MAX_CHARACTERS) return existing;
      const looks = await askNarrator(input.userId, input.storyId, { premise: input.premise, scene: input.scene, known, describePlayer: false });
      if (looks.characters.length === 0) return existing;
      await repos.images.addCharacters(input.storyId, looks.characters, STYLE_SHEET_MAX_CHARACTERS, deps.now());
      return (await repos.images.findVisuals(input.storyId)) ?? existing;
    },
  };
}
export type StyleSheets = ReturnType<typeof createStyleSheets>;
