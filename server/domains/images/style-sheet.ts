// Each story's visual style sheet. It is filled once, when the story's first picture is painted or
// its owner first looks at it: the art style from the genre mix and content rating, the player's look
// and the premise's named characters from the narrator model. Later pictures whose scene names someone
// new extend it; reading it never does. The owner can edit it; an edit applies to the next picture.
// The narrator call is a small JSON request and a paid call like any other (the player's hour and
// month); a refused, failed or unusable call falls back to the offline heuristics, so a picture never
// waits on it.
import { randomInt } from 'node:crypto';
import { classifyGenre } from '@server/ai/genre';
import { artStyleFor, findNames, lookFor, playerLookFor } from '@server/ai/image/style-heuristics';
import { cutMiddle } from '@server/ai/llm/context';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { NarratorError, type NarratorProvider } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { VisualsRecord } from '@server/db/repositories/images';
import { STYLE_SHEET_MAX_CHARACTERS, styleCharacterSchema, type StyleCharacter } from '@shared/schemas/images';
import type { ContentRating } from '@shared/schemas/preferences';
import { z } from 'zod';
import type { Allowance } from '../limits/allowance';
import { recordNarratorCall } from '../limits/usage-ledger';
import type { Log } from '@server/kernel/log';

export const STYLE_SYSTEM_PROMPT =
  'You keep the visual style sheet of an illustrated story, so that every picture draws the same people the same way. Describe only what the text says or clearly implies; where it says nothing, choose plain, specific details. Answer with JSON only.';

const answerSchema = z.object({
  player: z.string().max(400).optional(),
  characters: z.array(z.unknown()).default([]),
});

const STYLE_MAX_OUTPUT_TOKENS = 400;
/** The premise's and the scene's share of a style request: with the instructions, a dozen names and the reply it stays inside the smallest window (LLM_MAX_OUTPUT_TOKENS + 2,048). */
const STYLE_PREMISE_TOKENS = 600;
const STYLE_SCENE_TOKENS = 400;
/** What a style request may cost beyond its reply: the instructions, the premise, one scene and the known names. */
const STYLE_PROMPT_TOKENS = 1_300;

export function styleUserPrompt(task: {
  premise: string;
  scene: string;
  known: string[];
  describePlayer: boolean;
}): string {
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
      const clipped = Object.fromEntries(
        Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v.slice(0, 160) : v]),
      );
      const parsed = styleCharacterSchema.safeParse(clipped);
      return parsed.success ? [parsed.data] : [];
    });
    return { player: answer.player?.trim().slice(0, 300) || undefined, characters };
  } catch {
    return null;
  }
}

/** A new sheet's seed: random per story (within what every painter accepts), so its pictures look alike. */
export const newSheetSeed = () => randomInt(0, 2 ** 31 - 1);

export interface SceneInput {
  userId: number;
  storyId: number;
  premise: string;
  scene: string;
  rating: ContentRating;
  /** The reply the picture is of: the style sheet's call is listed with it. */
  messageId?: number;
}

export function createStyleSheets(deps: {
  repos: Repositories;
  /** The narrator that writes a story's style sheet: the operator's for style sheets, else the story's. */
  narratorFor: (userId: number, storyId: number) => Promise<NarratorProvider>;
  allowance: Pick<Allowance, 'admitOrNull'>;
  now: () => Date;
  log: Log;
}) {
  const { repos } = deps;

  function heuristicLooks(task: { premise: string; scene: string; known: string[]; describePlayer: boolean }) {
    const genre = classifyGenre(task.premise).genre;
    return {
      player: task.describePlayer ? playerLookFor(genre) : undefined,
      characters: findNames(`${task.premise}\n${task.scene}`)
        .filter((n) => !task.known.some((k) => k.toLowerCase() === n.toLowerCase()))
        .map((n) => lookFor(n, genre)),
    };
  }

  /** The narrator's looks, or the offline heuristics when the call is refused (hour, month), fails or answers nothing usable. */
  async function askNarrator(
    { userId, storyId, messageId }: Pick<SceneInput, 'userId' | 'storyId' | 'messageId'>,
    task: { premise: string; scene: string; known: string[]; describePlayer: boolean },
  ) {
    // The premise and the scene cut to their shares, so the request fits the smallest window (see STYLE_PROMPT_TOKENS).
    const count = await loadTokenCounter();
    const sent = {
      ...task,
      premise: cutMiddle(task.premise, STYLE_PREMISE_TOKENS, count),
      scene: cutMiddle(task.scene, STYLE_SCENE_TOKENS, count),
    };
    const request = {
      system: STYLE_SYSTEM_PROMPT,
      messages: [{ role: 'user' as const, content: styleUserPrompt(sent) }],
      maxOutputTokens: STYLE_MAX_OUTPUT_TOKENS,
      temperature: 0.3,
      task: { kind: 'style' as const, ...task },
    };
    const hold = await deps.allowance.admitOrNull(userId, 'style', STYLE_PROMPT_TOKENS + STYLE_MAX_OUTPUT_TOKENS);
    if (!hold) return heuristicLooks(task);
    try {
      const narrator = await deps.narratorFor(userId, storyId);
      const result = await narrator.generate(request);
      await recordNarratorCall(repos, narrator, {
        userId,
        storyId,
        messageId,
        kind: 'style',
        request,
        result,
        now: deps.now(),
      });
      return parseLooks(result.text) ?? heuristicLooks(task);
    } catch (error) {
      if (!(error instanceof NarratorError)) throw error;
      deps.log.warn({ storyId, failure: error.failure }, 'style sheet call failed; using the offline heuristics');
      return heuristicLooks(task);
    } finally {
      await hold.release();
    }
  }

  /** A first sheet for the story: the art style from the premise and rating, the looks from `looks`. */
  function firstSheet(input: SceneInput, looks: { player?: string; characters: StyleCharacter[] }) {
    return {
      artStyle: artStyleFor(input.premise, input.rating),
      player: looks.player ?? playerLookFor(classifyGenre(input.premise).genre),
      characters: looks.characters.slice(0, STYLE_SHEET_MAX_CHARACTERS),
    };
  }

  async function fill(input: SceneInput): Promise<VisualsRecord> {
    const looks = await askNarrator(input, {
      premise: input.premise,
      scene: input.scene,
      known: [],
      describePlayer: true,
    });
    return repos.images.createVisuals(input.storyId, firstSheet(input, looks), newSheetSeed(), deps.now());
  }

  return {
    /**
     * The sheet as it stands, for its owner to read: filled on the first look. `mayPay` false (a request
     * another site's page could have made) reads what is stored, or shows the offline heuristics' sheet
     * without keeping it: no narrator call, no write. Reading never extends a sheet: only a new picture does.
     */
    async current(input: SceneInput, mayPay: boolean): Promise<VisualsRecord> {
      const existing = await repos.images.findVisuals(input.storyId);
      if (existing) return existing;
      if (mayPay) return fill(input);
      const looks = heuristicLooks({ premise: input.premise, scene: input.scene, known: [], describePlayer: true });
      return { ...firstSheet(input, looks), seed: 0, updatedAt: deps.now() };
    },

    /** The story's sheet, filled on first use, extended with characters this scene names for the first time. */
    async forScene(input: SceneInput): Promise<VisualsRecord> {
      const existing = await repos.images.findVisuals(input.storyId);
      if (!existing) return fill(input);
      const known = existing.characters.map((c) => c.name);
      const fresh = findNames(input.scene).filter((n) => !known.some((k) => k.toLowerCase() === n.toLowerCase()));
      if (fresh.length === 0 || existing.characters.length >= STYLE_SHEET_MAX_CHARACTERS) return existing;
      const task = { premise: input.premise, scene: input.scene, known, describePlayer: false };
      let { characters } = await askNarrator(input, task);
      // Names the narrator did not describe get the heuristics' looks, so no later scene asks about them again.
      if (characters.length === 0)
        characters = heuristicLooks(task).characters.filter((c) =>
          fresh.some((n) => n.toLowerCase() === c.name.toLowerCase()),
        );
      if (characters.length === 0) return existing;
      await repos.images.addCharacters(input.storyId, characters, STYLE_SHEET_MAX_CHARACTERS, deps.now());
      return (await repos.images.findVisuals(input.storyId)) ?? existing;
    },
  };
}
export type StyleSheets = ReturnType<typeof createStyleSheets>;
