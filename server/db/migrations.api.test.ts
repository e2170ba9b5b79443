// Migrations keep what players made: a database built by the previous release's migrations, with a
// story in it as that release wrote it, is migrated to this release's schema and every story is
// still there, readable through the API, and playable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateThrough } from '@server/test/migrate-through';
import { quotaCounters, storedBytesByKind } from '@server/test/quota-counters';
import { createTestApp, openEmptyTestDatabase, registerUser, type TestContext } from '@server/test/test-app';
import type { Database } from './client';

/** The last migration of the release before the story memory panel. */
const PREVIOUS_RELEASE = '0006_usage_rollups';

let ctx: TestContext;
let database: Database;
beforeAll(async () => {
  database = await openEmptyTestDatabase();
  await migrateThrough(database, PREVIOUS_RELEASE);
  ctx = await createTestApp({}, { database });
});
afterAll(() => ctx.close());

describe('a database made by the previous release', () => {
  it('keeps every story, its memory and its messages through the new migrations, and plays on', async () => {
    const { client, id: userId } = await registerUser(ctx.app);
    // The story as the previous release stored it (no notes column yet).
    const story = await database.executeSql(
      `insert into stories (user_id, title, premise, memory, memory_through_id) values ($1, 'The Moving Valley', 'A valley that moves at night', 'You met Ysolde.', 0) returning id`,
      [userId],
    );
    const storyId = (story.rows[0] as { id: number }).id;
    await database.executeSql(
      `insert into story_messages (story_id, role, content, turn, is_initial, attempts) values
        ($1, 'user', 'A valley that moves at night', 0, true, 1),
        ($1, 'assistant', 'The valley shivers under the moon.', 0, false, 0),
        ($1, 'user', 'I follow the river', 1, false, 1),
        ($1, 'assistant', 'The river bends back on itself.', 1, false, 0)`,
      [storyId],
    );
    const columns = await database.executeSql(
      `select column_name from information_schema.columns where table_name = 'stories' and column_name = 'notes'`,
    );
    expect(columns.rows).toEqual([]);

    await database.migrate();

    const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
    expect(state.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'A valley that moves at night'],
      ['assistant', 'The valley shivers under the moon.'],
      ['user', 'I follow the river'],
      ['assistant', 'The river bends back on itself.'],
    ]);
    expect((await client.get(`/api/story/${storyId}/memory`)).json()).toEqual({
      premise: 'A valley that moves at night',
      summary: 'You met Ysolde.',
      notes: '',
      // A memory written before chunks is one chunk.
      chunks: ['You met Ysolde.'],
    });
    expect((await client.get('/api/stories')).json().stories).toMatchObject([
      { id: storyId, title: 'The Moving Valley', turns: 1 },
    ]);
    const played = await client.post(`/api/story/${storyId}/continue`, { message: 'I wade across' });
    expect(played.statusCode).toBe(200);
    expect((await client.get(`/api/story/${storyId}/current-state`)).json().messages).toHaveLength(6);
  });
});

describe('a database made by the release before story versions', () => {
  it('keeps every message as its one shown version, its picture, and its memory as the first fold', async () => {
    const older = await openEmptyTestDatabase();
    await migrateThrough(older, '0008_anonymous_usage_after_account_deletion');
    const app = await createTestApp({}, { database: older });
    try {
      const { client, id: userId } = await registerUser(app.app);
      const story = await older.executeSql(
        `insert into stories (user_id, title, premise, memory, memory_through_id) values ($1, 'Salt Roads', 'Caravans cross a salt sea', 'You hired a guide.', 0) returning id`,
        [userId],
      );
      const storyId = (story.rows[0] as { id: number }).id;
      const inserted = await older.executeSql(
        `insert into story_messages (story_id, role, content, turn, is_initial, attempts) values
          ($1, 'user', 'Caravans cross a salt sea', 0, true, 1),
          ($1, 'assistant', 'The salt glitters like frost.', 0, false, 0),
          ($1, 'user', 'I follow the guide', 1, false, 1),
          ($1, 'assistant', 'The guide hums an old song.', 1, false, 0)
         returning id`,
        [storyId],
      );
      const ids = (inserted.rows as Array<{ id: number }>).map((r) => r.id);
      await older.executeSql('update stories set memory_through_id = $1 where id = $2', [ids[1], storyId]);

      await older.migrate();

      const state = (await client.get(`/api/story/${storyId}/current-state`)).json();
      expect(state.messages.map((m: { content: string; versions?: number }) => [m.content, m.versions])).toEqual([
        ['Caravans cross a salt sea', undefined],
        ['The salt glitters like frost.', undefined],
        ['I follow the guide', undefined],
        ['The guide hums an old song.', undefined],
      ]);
      expect(state.canRedo).toBe(false);
      // The memory so far is kept as the first fold (undo and branches go back to folds).
      const folds = await older.executeSql('select through_id, memory from story_memory_folds where story_id = $1', [
        storyId,
      ]);
      expect(folds.rows).toEqual([{ through_id: ids[1], memory: 'You hired a guide.' }]);
      const branch = (await client.post(`/api/story/${storyId}/branch`, { messageId: ids[3] })).json().storyId;
      expect((await client.get(`/api/story/${branch}/memory`)).json().summary).toBe('You hired a guide.');
      const retried = (await client.post(`/api/story/${storyId}/retry`)).json();
      expect([retried.messageId, retried.version, retried.versions]).toEqual([ids[3], 2, 2]);
      const history = (await client.get(`/api/story/${storyId}/messages/${ids[3]}/versions`)).json().versions;
      expect(history.map((v: { kind: string; content: string }) => [v.kind, v.content])[0]).toEqual([
        'original',
        'The guide hums an old song.',
      ]);
    } finally {
      await app.close();
    }
  });
});

describe('a database made by the release before quotas', () => {
  it("counts each player's stored text and live share links from what is stored, then keeps them true", async () => {
    const older = await openEmptyTestDatabase();
    await migrateThrough(older, '0010_shown_messages_index');
    const app = await createTestApp({}, { database: older });
    try {
      const { client, id: userId } = await registerUser(app.app);
      const story = await older.executeSql(
        `insert into stories (user_id, title, premise, memory, notes) values ($1, 'Salt Roads', 'Caravans cross a salt sea', 'You hired a guide.', 'Keep it dry.') returning id`,
        [userId],
      );
      const storyId = (story.rows[0] as { id: number }).id;
      const inserted = await older.executeSql(
        `insert into story_messages (story_id, role, content, turn, is_initial, attempts, versions, version) values
          ($1, 'user', 'Caravans cross a salt sea', 0, true, 1, 1, 1),
          ($1, 'assistant', 'The salt glitters like frost.', 0, false, 0, 2, 2),
          ($1, 'user', 'I follow the guide', 1, false, 1, 1, 1),
          ($1, 'assistant', 'The guide hums an old song, the one about wells.', 1, false, 0, 1, 1)
         returning id`,
        [storyId],
      );
      const ids = (inserted.rows as Array<{ id: number }>).map((r) => r.id);
      await older.executeSql(
        `insert into message_versions (message_id, version, kind, content) values ($1, 1, 'original', 'The salt shines.'), ($1, 2, 'edit', 'The salt glitters like frost.')`,
        [ids[1]],
      );
      await older.executeSql(
        `insert into story_memory_folds (story_id, through_id, memory) values ($1, $2, 'You hired a guide.')`,
        [storyId, ids[1]],
      );
      await older.executeSql(
        `insert into shared_stories (id, user_id, story_id, title, messages) values ('aaaaaaaaaaaaaaaa', $1, $2, 'Salt', $3)`,
        [userId, storyId, JSON.stringify([{ role: 'user', content: 'Caravans cross a salt sea' }])],
      );

      await older.migrate();

      const expected =
        ['Caravans cross a salt sea', 'You hired a guide.', 'Keep it dry.'].join('').length +
        [
          'Caravans cross a salt sea',
          'The salt glitters like frost.',
          'I follow the guide',
          'The guide hums an old song, the one about wells.',
        ].join('').length +
        ['The salt shines.', 'The salt glitters like frost.'].join('').length +
        'You hired a guide.'.length +
        'Salt'.length +
        // The snapshot as jsonb writes it out.
        '[{"role": "user", "content": "Caravans cross a salt sea"}]'.length;
      const { counted, actual } = await quotaCounters(older, userId);
      expect(actual).toEqual({ storedBytes: expected, shares: 1, stories: 1 });
      expect(counted).toEqual(actual);
      expect((await client.get('/api/user/limits')).json()).toMatchObject({
        stories: { used: 1 },
        shares: { used: 1 },
        storedBytes: { used: expected },
      });
      // The snapshot moved into its one piece (0015) and reads as it did.
      expect((await app.app.inject({ method: 'GET', url: '/api/shared/aaaaaaaaaaaaaaaa' })).json()).toMatchObject({
        title: 'Salt',
        messages: [{ role: 'user', content: 'Caravans cross a salt sea' }],
      });

      expect(
        (await client.post(`/api/story/${storyId}/continue`, { message: 'I drink from the well' })).statusCode,
      ).toBe(200);
      const played = await quotaCounters(older, userId);
      expect(played.counted).toEqual(played.actual);
      expect(played.actual.storedBytes).toBeGreaterThan(expected);
    } finally {
      await app.close();
    }
  });
});

describe('a database made by the release before shares in pieces', () => {
  it('moves each snapshot into one piece and its pictures into rows, counted as before', async () => {
    const older = await openEmptyTestDatabase();
    await migrateThrough(older, '0014_story_imports');
    const app = await createTestApp({}, { database: older });
    try {
      const { id: userId } = await registerUser(app.app);
      const story = await older.executeSql(
        `insert into stories (user_id, premise) values ($1, 'A glass harbour') returning id`,
        [userId],
      );
      const storyId = (story.rows[0] as { id: number }).id;
      const picture = {
        image: '/api/shared/bbbbbbbbbbbbbbbb/images/abc123.webp',
        thumbnail: '/api/shared/bbbbbbbbbbbbbbbb/images/abc123.thumb.webp',
        imageAlt: 'A harbour',
      };
      const messages = [
        { role: 'user', content: 'A glass harbour' },
        { role: 'assistant', content: 'The ships ring.', ...picture },
      ];
      await older.executeSql(
        `insert into shared_stories (id, user_id, story_id, title, messages) values ('bbbbbbbbbbbbbbbb', $1, $2, 'Glass', $3)`,
        [userId, storyId, JSON.stringify(messages)],
      );
      const counters = async () =>
        (
          await older.executeSql(
            'select shares, stored_bytes::int as "storedBytes" from user_stats where user_id = $1',
            [userId],
          )
        ).rows;
      const before = await counters();
      expect(before).toMatchObject([{ shares: 1 }]);

      await older.migrate();

      expect((await older.executeSql('select share_id, asset_hash from shared_story_pictures')).rows).toEqual([
        { share_id: 'bbbbbbbbbbbbbbbb', asset_hash: 'abc123' },
      ]);
      expect((await older.executeSql('select pieces, writing from shared_stories')).rows).toEqual([
        { pieces: 1, writing: false },
      ]);
      expect(await counters()).toEqual(before);
      const { counted, actual } = await quotaCounters(older, userId);
      expect(counted).toEqual(actual);
      const read = (await app.app.inject({ method: 'GET', url: '/api/shared/bbbbbbbbbbbbbbbb' })).json();
      expect(read.messages.map((m: { content: string }) => m.content)).toEqual(['A glass harbour', 'The ships ring.']);
    } finally {
      await app.close();
    }
  });
});

describe('a database made by the release before context records and the memory bank counted', () => {
  it("adds each player's context records, facts, passages, terms and vectors to their stored bytes, then keeps them true", async () => {
    const older = await openEmptyTestDatabase();
    await migrateThrough(older, '0029_rollup_lock_order');
    // Today's code plays the story below, and it needs the columns later migrations add (a story's
    // narrator, 0032; the ledger's, 0033; the preferred one, 0034): given here and taken away again
    // before the migrations this test is about.
    const later = [
      ['stories', 'narrator', 'text'],
      ['usage_events', 'narrator', `text not null default 'default'`],
      ['user_preferences', 'narrator', 'text'],
    ];
    for (const [table, column, type] of later)
      await older.executeSql(`alter table ${table} add column ${column} ${type}`);
    const app = await createTestApp({}, { database: older });
    try {
      const { client, id: userId } = await registerUser(app.app);
      // A story played on that release: its opening reply kept a context record, uncounted.
      const started = await client.post('/api/story/start', { prompt: 'A harbour of glass ships' });
      expect(started.statusCode).toBe(200);
      const { storyId, messageId } = started.json() as { storyId: number; messageId: number };
      await older.executeSql(
        `insert into story_facts (story_id, message_id, turn, entity, attribute, value) values ($1, $2, 0, 'your horse', 'name', 'Bramble')`,
        [storyId, messageId],
      );
      const passage = await older.executeSql(
        `insert into memory_passages (story_id, message_id, version, part, turn, role, text, terms, counts, length)
         values ($1, $2, 1, 0, 0, 'assistant', 'Bramble the horse.', '{horse,bramble}', '{1,1}', 2) returning id`,
        [storyId, messageId],
      );
      await older.executeSql(
        `insert into memory_terms (story_id, term, holding) values ($1, 'horse', 1), ($1, 'bramble', 1)`,
        [storyId],
      );
      await older.executeSql(
        `insert into memory_vectors (passage_id, story_id, model, vector) values ($1, $2, 'fake-embed', '\\x01020304')`,
        [(passage.rows[0] as { id: number }).id, storyId],
      );
      const kinds = await storedBytesByKind(older, userId);
      expect(kinds.contexts).toBeGreaterThan(0);
      expect([kinds.facts, kinds.passages, kinds.terms, kinds.vectors]).toEqual([
        'your horse'.length + 'name'.length + 'Bramble'.length,
        'Bramble the horse.'.length + '{horse,bramble}'.length + '{1,1}'.length,
        'horse'.length + 'bramble'.length,
        4,
      ]);
      const before = await quotaCounters(older, userId);
      const uncounted = kinds.contexts + kinds.facts + kinds.passages + kinds.terms + kinds.vectors;
      expect(before.counted!.storedBytes).toBe(before.actual.storedBytes - uncounted);

      for (const [table, column] of later) await older.executeSql(`alter table ${table} drop column ${column}`);
      await older.migrate();

      const { counted, actual } = await quotaCounters(older, userId);
      expect(counted).toEqual(actual);
      expect(actual.storedBytes).toBe(before.actual.storedBytes);
      expect((await client.get('/api/user/limits')).json()).toMatchObject({
        storedBytes: { used: actual.storedBytes },
      });

      expect(
        (await client.post(`/api/story/${storyId}/continue`, { message: 'I ride Bramble along the quay' })).statusCode,
      ).toBe(200);
      expect((await client.request({ method: 'DELETE', url: `/api/story/${storyId}`, json: {} })).statusCode).toBe(200);
      expect(await quotaCounters(older, userId)).toEqual({
        counted: { storedBytes: 0, shares: 0, stories: 0 },
        actual: { storedBytes: 0, shares: 0, stories: 0 },
      });
    } finally {
      await app.close();
    }
  });
});
