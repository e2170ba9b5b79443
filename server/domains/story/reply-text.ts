// A narrator reply's text as it is kept: what a turn and the loop guard's second answer both save.

/** A reply cut by the length cap ends at its last full sentence rather than mid-word. */
export function tidyReply(text: string): string {
  const trimmed = text.trim();
  if (/[.!?"”'’)*]$/.test(trimmed)) return trimmed;
  const lastStop = Math.max(
    trimmed.lastIndexOf('. '),
    trimmed.lastIndexOf('! '),
    trimmed.lastIndexOf('? '),
    trimmed.lastIndexOf('.\n'),
  );
  return lastStop > trimmed.length / 2 ? trimmed.slice(0, lastStop + 1) : trimmed;
}
