// How spoken text joins the draft: after what is already typed, separated by one space (none when
// the draft is empty or already ends in whitespace), never replacing anything.
export function appendTranscript(draft: string, transcript: string): string {
  const text = transcript.trim();
  if (text === '') return draft;
  if (draft === '' || /\s$/.test(draft)) return `${draft}${text}`;
  return `${draft} ${text}`;
}
