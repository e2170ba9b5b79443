// Bad input to pictures and speech: generate-image and generate-initial-image, a
// picture's state, the style sheet, the stored picture files, a reply's spoken parts and a
// recording to transcribe. Malformed ids and bodies are 4xx with the API's error and a message a
// player can act on; other players' stories, messages and pictures are the same 404 as missing
// ones; nothing is painted, spoken or transcribed (the voice and transcriber here point nowhere,
// so a request that reached them would answer 502, not the 4xx asserted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_IDS, expectRefusal, MALFORMED_IDS, MISSING_ID, sendRaw } from '@server/test/bad-input';
import { createFakePainter, settlePicture, type FakePainter } from '@server/test/fake-painter';
import { play, startStory } from '@server/test/story-turns';
import {
  createTestApp,
  registerUser,
  TestClient,
  testConfig,
  type RegisteredUser,
  type TestContext,
} from '@server/test/test-app';
import { IMAGE_MESSAGES } from '@shared/schemas/images';
import { MAX_RECORDING_BYTES, SPEECH_MESSAGES } from '@shared/schemas/speech';

const NOWHERE = 'http://127.0.0.1:9';

let ctx: TestContext;
let painter: FakePainter;
let owner: RegisteredUser;
let stranger: RegisteredUser;
let storyId: number;
let premiseId: number;
let replyId: number;
let foreignStoryId: number;
let foreignReplyId: number;
/** The stranger's painted picture: its state answer (image and thumbnail URLs). */
let foreignPicture: { image: string; thumbnail: string };

beforeAll(async () => {
  painter = createFakePainter();
  const base = testConfig();
  ctx = await createTestApp(
    {
      tts: { ...base.tts, provider: 'openai', baseUrl: NOWHERE, apiKey: 'sk-unused', model: 'tts-1', voices: ['nova'] },
      stt: { ...base.stt, provider: 'openai', baseUrl: NOWHERE, apiKey: 'sk-unused', model: 'whisper-1' },
    },
    { painter },
  );
  owner = await registerUser(ctx.app);
  stranger = await registerUser(ctx.app);
  ({ storyId } = await startStory(owner.client, 'A lighthouse keeper finds a door in the rock'));
  replyId = (await play(owner.client, storyId, 'I open the door')).messageId;
  premiseId = (await owner.client.get(`/api/story/${storyId}/current-state`)).json().messages[0].messageId;
  ({ storyId: foreignStoryId, messageId: foreignReplyId } = await startStory(
    stranger.client,
    'A courier crosses the salt flats at night',
  ));
  await stranger.client.post(`/api/story/message/${foreignReplyId}/generate-image`, {
    content: 'The salt flats',
    storyId: foreignStoryId,
  });
  foreignPicture = (await settlePicture(stranger.client, foreignReplyId)).json();
  expect(foreignPicture.image).toMatch(/^\/api\/images\/[0-9a-f]{64}\.webp$/);
});
afterAll(() => ctx.close());

const GENERATE = ['generate-image', 'generate-initial-image'] as const;
const generate = (client: TestClient, path: (typeof GENERATE)[number], messageId: number | string, json: unknown) =>
  client.post(`/api/story/message/${messageId}/${path}`, json);
const putSheet = (client: TestClient, id: number | string, json: unknown) =>
  client.request({ method: 'PUT', url: `/api/story/${id}/style-sheet`, json });
const speechUrl = (story: number | string, message: number | string, part: number | string, voice = 'nova') =>
  `/api/story/${story}/messages/${message}/speech/${part}?voice=${voice}`;

describe('pictures', () => {
  it('refuses malformed message ids and answers impossible and other players\u2019 ones as missing, painting nothing', async () => {
    const asked = painter.requests.length;
    for (const path of GENERATE) {
      for (const id of MALFORMED_IDS)
        expectRefusal(
          await generate(owner.client, path, id, { content: 'A scene', storyId }),
          400,
          IMAGE_MESSAGES.messageNotFound,
        );
      for (const id of ABSENT_IDS)
        expectRefusal(
          await generate(owner.client, path, id, { content: 'A scene', storyId }),
          404,
          IMAGE_MESSAGES.messageNotFound,
        );
      const missing = await generate(owner.client, path, MISSING_ID, { content: 'A scene', storyId });
      const foreign = await generate(owner.client, path, foreignReplyId, { content: 'A scene', storyId });
      expect([foreign.statusCode, foreign.json()]).toEqual([404, missing.json()]);
      // The owner's premise is no narrator reply: no picture of it either.
      const premise = await generate(owner.client, path, premiseId, { content: 'A scene', storyId });
      expect([premise.statusCode, premise.json()]).toEqual([404, missing.json()]);
    }
    for (const id of MALFORMED_IDS)
      expectRefusal(await owner.client.get(`/api/story/message/${id}/image`), 400, IMAGE_MESSAGES.messageNotFound);
    for (const id of ABSENT_IDS)
      expectRefusal(await owner.client.get(`/api/story/message/${id}/image`), 404, IMAGE_MESSAGES.noImage);
    // The stranger's reply has a finished picture: to anyone else it is no picture at all.
    const missing = await owner.client.get(`/api/story/message/${MISSING_ID}/image`);
    const foreign = await owner.client.get(`/api/story/message/${foreignReplyId}/image`);
    expect([foreign.statusCode, foreign.json()]).toEqual([404, missing.json()]);
    expect(painter.requests.length).toBe(asked);
  });

  it('refuses a story id that is not a whole number or id text, and content that is not text, painting nothing', async () => {
    const asked = painter.requests.length;
    for (const path of GENERATE) {
      for (const bad of [
        undefined,
        null,
        true,
        false,
        [storyId],
        { id: storyId },
        '',
        ` ${storyId}`,
        `${storyId}.0`,
        '1e3',
        -1,
        0,
        1.5,
        1e300,
      ]) {
        expectRefusal(
          await generate(owner.client, path, replyId, { content: 'A scene', storyId: bad }),
          400,
          IMAGE_MESSAGES.storyNotInitialized,
        );
      }
      for (const bad of [undefined, null, 5, ['A scene'], { text: 'A scene' }, '', '  ']) {
        expectRefusal(
          await generate(owner.client, path, replyId, { content: bad, storyId }),
          400,
          IMAGE_MESSAGES.noContent,
        );
      }
      expectRefusal(
        await generate(owner.client, path, replyId, { content: 'x'.repeat(20_001), storyId }),
        400,
        IMAGE_MESSAGES.contentTooLong,
      );
      // Beyond PostgreSQL's integer, and another player's story: a story of the player's it is not.
      const missing = await generate(owner.client, path, replyId, { content: 'A scene', storyId: MISSING_ID });
      expectRefusal(missing, 404, IMAGE_MESSAGES.storyNotInitialized);
      for (const other of [2_147_483_648, foreignStoryId, String(foreignStoryId)]) {
        const res = await generate(owner.client, path, replyId, { content: 'A scene', storyId: other });
        expect([res.statusCode, res.json()]).toEqual([404, missing.json()]);
      }
    }
    expect(painter.requests.length).toBe(asked);
    expect((await owner.client.get(`/api/story/${storyId}/current-state`)).json().images).toEqual([]);
  });

  it('refuses style sheets that are not one, by field, and keeps the sheet; other players\u2019 sheets are missing ones', async () => {
    const sheet = (await owner.client.get(`/api/story/${storyId}/style-sheet`)).json();
    const valid = { artStyle: 'Ink wash', player: 'A tall keeper', characters: [{ name: 'Mara' }] };
    const cases: Array<[unknown, string]> = [
      [{}, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, artStyle: undefined }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, artStyle: 5 }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, player: null }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, player: ['A keeper'] }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: undefined }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: { name: 'Mara' } }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: 'Mara' }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: [null] }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: ['Mara'] }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: [{ name: 'Mara', face: 5 }] }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: [{ name: 'Mara', hair: ['red'] }] }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: [{ name: 'Mara', clothes: { coat: 'blue' } }] }, IMAGE_MESSAGES.styleSheetInvalid],
      [{ ...valid, characters: [{}] }, IMAGE_MESSAGES.characterNameRequired],
      [{ ...valid, characters: [{ name: '   ' }] }, IMAGE_MESSAGES.characterNameRequired],
      [{ ...valid, characters: [{ name: 7 }] }, IMAGE_MESSAGES.characterNameRequired],
      [
        { ...valid, characters: Array.from({ length: 13 }, (_, i) => ({ name: `C${i}` })) },
        IMAGE_MESSAGES.tooManyCharacters,
      ],
      [{ ...valid, artStyle: 'x'.repeat(301) }, IMAGE_MESSAGES.styleTooLong],
      [{ ...valid, characters: [{ name: 'x'.repeat(41) }] }, IMAGE_MESSAGES.styleTooLong],
      [{ ...valid, characters: [{ name: 'Mara', face: 'x'.repeat(161) }] }, IMAGE_MESSAGES.styleTooLong],
    ];
    for (const [body, message] of cases) expectRefusal(await putSheet(owner.client, storyId, body), 400, message);
    expectRefusal(
      await putSheet(owner.client, storyId, {
        ...valid,
        characters: Array.from({ length: 6_000 }, () => ({ name: 'M' })),
      }),
      413,
      'Request body is too large',
    );
    expect((await owner.client.get(`/api/story/${storyId}/style-sheet`)).json()).toEqual(sheet);

    for (const id of MALFORMED_IDS) {
      expectRefusal(await owner.client.get(`/api/story/${id}/style-sheet`), 400, 'Story id must be a number');
      expectRefusal(await putSheet(owner.client, id, valid), 400, 'Story id must be a number');
    }
    for (const id of ABSENT_IDS) expectRefusal(await putSheet(owner.client, id, valid), 404, 'Story not found');
    const theirs = (await stranger.client.get(`/api/story/${foreignStoryId}/style-sheet`)).json();
    const missingRead = await owner.client.get(`/api/story/${MISSING_ID}/style-sheet`);
    const missingWrite = await putSheet(owner.client, MISSING_ID, valid);
    const foreignRead = await owner.client.get(`/api/story/${foreignStoryId}/style-sheet`);
    const foreignWrite = await putSheet(owner.client, foreignStoryId, valid);
    expect([foreignRead.statusCode, foreignRead.json()]).toEqual([404, missingRead.json()]);
    expect([foreignWrite.statusCode, foreignWrite.json()]).toEqual([404, missingWrite.json()]);
    expect((await stranger.client.get(`/api/story/${foreignStoryId}/style-sheet`)).json()).toEqual(theirs);
  });

  it('serves a stored picture to its owner only: junk names and another player\u2019s picture are the same 404', async () => {
    const hash = foreignPicture.image.slice('/api/images/'.length, -'.webp'.length);
    expect((await stranger.client.get(foreignPicture.image)).statusCode).toBe(200);
    const missing = await owner.client.get(`/api/images/${'0'.repeat(64)}.webp`);
    expectRefusal(missing, 404, IMAGE_MESSAGES.imageNotFound);
    const names = [
      `${hash}.webp`,
      `${hash}.thumb.webp`,
      hash,
      `${hash.toUpperCase()}.webp`,
      `${hash}.png`,
      `${hash}.webp.webp`,
      `..%2F${hash}.webp`,
      '%2E%2E%2F%2E%2E%2Fpackage.json',
      ...MALFORMED_IDS,
      ...ABSENT_IDS,
    ];
    for (const name of names) {
      const res = await owner.client.get(`/api/images/${name}`);
      expect([res.statusCode, res.json()], name).toEqual([404, missing.json()]);
    }
    expectRefusal(await new TestClient(ctx.app).get(foreignPicture.image), 401, 'Authentication required');
  });
});

describe('speech', () => {
  it('refuses malformed ids, parts and voices with their message, and answers other players\u2019 replies as missing ones', async () => {
    for (const id of MALFORMED_IDS) {
      expectRefusal(await owner.client.get(speechUrl(id, replyId, 0)), 400, SPEECH_MESSAGES.messageNotFound);
      expectRefusal(await owner.client.get(speechUrl(storyId, id, 0)), 400, SPEECH_MESSAGES.messageNotFound);
      expectRefusal(await owner.client.get(speechUrl(storyId, replyId, id)), 400, SPEECH_MESSAGES.partNotFound);
    }
    for (const id of ABSENT_IDS) {
      expectRefusal(await owner.client.get(speechUrl(id, replyId, 0)), 404, SPEECH_MESSAGES.messageNotFound);
      expectRefusal(await owner.client.get(speechUrl(storyId, id, 0)), 404, SPEECH_MESSAGES.messageNotFound);
    }
    for (const part of ['9999', '10000', '2147483648']) {
      expectRefusal(
        await owner.client.get(speechUrl(storyId, replyId, part)),
        part === '9999' ? 404 : 400,
        SPEECH_MESSAGES.partNotFound,
      );
    }
    for (const voice of ['', 'alloy', 'NOVA', 'nova&voice=nova', 'x'.repeat(101), '__proto__', 'constructor']) {
      expectRefusal(await owner.client.get(speechUrl(storyId, replyId, 0, voice)), 400, SPEECH_MESSAGES.unknownVoice);
    }
    expectRefusal(
      await owner.client.get(`/api/story/${storyId}/messages/${replyId}/speech/0`),
      400,
      SPEECH_MESSAGES.unknownVoice,
    );
    expectRefusal(await owner.client.get(speechUrl(storyId, premiseId, 0)), 400, SPEECH_MESSAGES.notNarration);

    const missing = await owner.client.get(speechUrl(MISSING_ID, MISSING_ID, 0));
    for (const [story, message] of [
      [foreignStoryId, foreignReplyId],
      [storyId, foreignReplyId],
      [foreignStoryId, replyId],
    ]) {
      const res = await owner.client.get(speechUrl(story, message, 0));
      expect([res.statusCode, res.json()]).toEqual([404, missing.json()]);
      expect(res.headers['x-speech-parts']).toBeUndefined();
      const head = await owner.client.request({ method: 'HEAD', url: speechUrl(story, message, 0) });
      expect([head.statusCode, head.headers['x-speech-parts']]).toEqual([404, undefined]);
    }
    expectRefusal(await new TestClient(ctx.app).get(speechUrl(storyId, replyId, 0)), 401, 'Authentication required');
  });

  it('refuses recordings that are empty, not audio, of another type or too large, before any transcriber is asked', async () => {
    const url = '/api/speech/transcriptions';
    expectRefusal(await sendRaw(owner.client, 'POST', url, '', 'audio/webm'), 400, SPEECH_MESSAGES.emptyRecording);
    for (const payload of ['not audio at all', '{"text":"hello"}', 'OggS'.slice(0, 3)]) {
      expectRefusal(await sendRaw(owner.client, 'POST', url, payload, 'audio/webm'), 415, SPEECH_MESSAGES.audioType);
    }
    for (const type of [
      'application/json',
      'text/plain',
      'audio/flac',
      'video/webm',
      'multipart/form-data; boundary=x',
      'AUDIO/WEBM; codecs=opus',
    ]) {
      expectRefusal(await sendRaw(owner.client, 'POST', url, '{}', type), 415, SPEECH_MESSAGES.audioType);
    }
    expectRefusal(await owner.client.request({ method: 'POST', url, payload: 'x' }), 415, SPEECH_MESSAGES.audioType);
    const tooLarge = await owner.client.request({
      method: 'POST',
      url,
      headers: { 'content-type': 'audio/webm' },
      payload: Buffer.alloc(MAX_RECORDING_BYTES + 1, 1),
    });
    expectRefusal(tooLarge, 413, SPEECH_MESSAGES.audioTooLarge);
    expectRefusal(
      await sendRaw(new TestClient(ctx.app), 'POST', url, 'x', 'audio/webm'),
      401,
      'Authentication required',
    );
  });
});
