// bench:stream --catalogue: the app run with a narrator catalogue in use instead of LLM_*: two
// narrators on the fake provider (the default, which also writes the memory's summaries, and a
// second with a larger window and another model name), and every other player's story switched to
// the second, so that half the turns are written by a narrator looked up for its story.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapLimit, type Player } from './players';
import { BENCH_API_KEY, BENCH_MODEL } from './processes';

/** NARRATORS_FILE (written in `dir`) and the key it names, for the app's environment. */
export function catalogueEnv(fakeBaseUrl: string, dir: string): Record<string, string> {
  const narrator = (id: string, model: string, contextTokens: number) => ({
    id,
    label: id,
    provider: 'openai',
    baseUrl: fakeBaseUrl,
    apiKeyEnv: 'BENCH_NARRATOR_KEY',
    model,
    contextTokens,
  });
  const file = join(dir, 'bench-narrators.json');
  writeFileSync(
    file,
    JSON.stringify({
      default: 'swift',
      tasks: { summary: 'swift' },
      narrators: [narrator('swift', BENCH_MODEL, 8192), narrator('deep', `${BENCH_MODEL}-deep`, 32768)],
    }),
  );
  return { NARRATORS_FILE: file, BENCH_NARRATOR_KEY: BENCH_API_KEY };
}

/** Switches every other player's story to the second narrator (PATCH /api/story/{id}/settings). */
export async function splitNarrators(base: string, players: Player[]): Promise<void> {
  await mapLimit(
    players.filter((_, i) => i % 2 === 1),
    10,
    async ({ cookie, storyId }) => {
      const res = await fetch(`${base}/api/story/${storyId}/settings`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ narrator: 'deep' }),
      });
      if (res.status !== 200) throw new Error(`switching a story's narrator failed: ${res.status} ${await res.text()}`);
    },
  );
}
