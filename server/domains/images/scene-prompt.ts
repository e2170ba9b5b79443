// What a picture is asked to show: the style sheet (art style, the player's look, the looks of the
// characters this scene names) then the scene, taken from the one reply being illustrated and
// nothing else, so a picture cannot show what the story has not said. Characters the scene does not
// name are left out on purpose: listing them invites the painter to draw people who are not there.
import type { StyleSheet } from '@shared/schemas/images';

const SCENE_MAX_CHARS = 900;
const ALT_MAX_CHARS = 220;

/** The reply as a scene: one paragraph, without the closing question to the player, cut at a sentence. */
export function sceneFromReply(reply: string): string {
  const flat = reply.replace(/\s+/g, ' ').trim();
  const sentences = flat.match(/[^.!?]+[.!?]+["”’']?|[^.!?]+$/g) ?? [flat];
  // The narrator ends by asking what the player does: that is not part of the picture.
  while (sentences.length > 1 && /\?["”’']?\s*$/.test(sentences[sentences.length - 1])) sentences.pop();
  let scene = '';
  for (const sentence of sentences) {
    if ((scene + sentence).length > SCENE_MAX_CHARS) break;
    scene += sentence;
  }
  return (scene || flat.slice(0, SCENE_MAX_CHARS)).trim();
}

/** Alt text: the scene's opening sentences, short enough for a screen reader. */
export function altFromScene(scene: string): string {
  if (scene.length <= ALT_MAX_CHARS) return scene;
  const cut = scene.slice(0, ALT_MAX_CHARS);
  const stop = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '));
  return stop > ALT_MAX_CHARS / 3 ? cut.slice(0, stop + 1) : `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

export function mentions(scene: string, name: string): boolean {
  return new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(scene);
}

/** The full prompt real painters are sent: the style sheet first, then the scene. */
export function buildScenePrompt(sheet: StyleSheet, scene: string): string {
  const parts = [`Art style: ${sheet.artStyle}.`];
  if (sheet.player) parts.push(`The player character ("you" in the text): ${sheet.player}.`);
  const present = sheet.characters.filter((c) => mentions(scene, c.name));
  if (present.length > 0) {
    parts.push(
      `Characters, always drawn exactly like this: ${present.map((c) => `${c.name}: ${[c.face, c.hair, c.clothes].filter(Boolean).join(', ')}`).join('; ')}.`,
    );
  }
  parts.push(`Scene (show only what this text describes, no captions or lettering): ${scene}`);
  return parts.join('\n');
}
