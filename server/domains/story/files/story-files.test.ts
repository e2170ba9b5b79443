// What an imported file will store, as the storage quota counts it (migrations 0013 and 0030), for
// the check that refuses a file a full account cannot hold before any of it is written.
import { expect, it } from 'vitest';
import { storedBytesOf } from './story-files';

it("counts the story's own text, every message and version, and the story bible's facts, in UTF-8 bytes", () => {
  const story = {
    premise: 'A glass harbour',
    memory: 'You met Ysolde.',
    notes: 'Keep it quiet.',
    bible: [{ entity: 'your horse', attribute: 'name', value: 'Brämble' }],
  };
  const messages = [
    { content: 'A glass harbour' },
    { content: 'The ships ring.', versions: [{ content: 'The ships hum.' }, { content: 'The ships ring.' }] },
  ];
  const text = 'A glass harbour'.length + 'You met Ysolde.'.length + 'Keep it quiet.'.length;
  const inMessages = 'A glass harbour'.length + 'The ships ring.'.length * 2 + 'The ships hum.'.length;
  // 'ä' is two bytes.
  const inBible = 'your horse'.length + 'name'.length + 'Brämble'.length + 1;
  expect(storedBytesOf(story, messages)).toBe(text + inMessages + inBible);
  expect(storedBytesOf({ ...story, bible: [] }, messages)).toBe(text + inMessages);
});
