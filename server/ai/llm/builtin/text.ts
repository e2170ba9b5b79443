// Small text helpers for the offline narrator and its summaries: sentence splitting, a cheap
// name detector, capitals and word counts. (Reading the player's action is ./action.ts.)

export function splitSentences(text: string): string[] {
  return (text.match(/[^.!?]+[.!?]+["”']?|[^.!?]+$/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** Capitalised words that are not the first word of their sentence: a cheap detector of names. */
export function namesIn(sentence: string): string[] {
  const words = sentence.split(/\s+/).slice(1);
  return words.map((w) => w.replace(/[^A-Za-z'-]/g, '')).filter((w) => /^[A-Z][a-z]{1,}/.test(w) && w !== 'I');
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
