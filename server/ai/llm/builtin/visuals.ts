// The offline narrator's answer to a style-sheet request: the looks the heuristics give (the
// premise's genre sets the clothes), in the JSON shape a real model is asked for.
import { classifyGenre } from '@server/ai/genre';
import { findNames, lookFor, playerLookFor } from '@server/ai/image/style-heuristics';
import type { StyleCharacter } from '@shared/schemas/images';

export function describeLooks(task: { premise: string; scene: string; known: string[]; describePlayer: boolean }): {
  player?: string;
  characters: StyleCharacter[];
} {
  const genre = classifyGenre(task.premise).genre;
  const known = new Set(task.known.map((name) => name.toLowerCase()));
  const characters = findNames(`${task.premise}\n${task.scene}`)
    .filter((name) => !known.has(name.toLowerCase()))
    .map((name) => lookFor(name, genre));
  return { ...(task.describePlayer ? { player: playerLookFor(genre) } : {}), characters };
}
