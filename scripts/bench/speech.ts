// `npm run bench:speech`: server voices and server transcription, each measured side by side in one
// run against the same fake OpenAI-compatible speech server (answering after BENCH_SPEECH_LATENCY_MS):
// 1. A narrator sentence spoken: the provider asked directly (POST /audio/speech) and through
//    Taleweaver (GET /api/story/{id}/messages/{mid}/speech/{part}, first time: synthesised and kept),
//    interleaved sentence by sentence over the same sentences; then the replay of every part (kept
//    clip, no provider call). p50 / p99 and the added milliseconds.
// 2. A 1 MB recording transcribed: the provider directly (multipart) and through Taleweaver (raw
//    body, type and bytes checked, forwarded as multipart), interleaved.
// 3. RSS before and after.
// On a fresh PGlite data dir and, with TEST_DATABASE_URL, on a throwaway PostgreSQL database.
// Knobs: BENCH_SPEECH_LATENCY_MS (150), BENCH_SPEECH_TURNS (12), BENCH_RECORDINGS (30). Nothing is asserted.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { splitSentences } from '../../shared/speech/sentences';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/kernel/config';
import { openDatabase, type Database } from '../../server/db/client';
import { startFakeSpeechServer } from '../../server/test/fake-speech-server';
import { registerOverHttp } from '../../server/test/spawn-server';
import { percentile } from './lib/stats';
import { formatAdded, formatMb, formatMs } from './lib/report';
import { listenAppOnLoopback } from '../../server/test/listen-on-loopback';

const LATENCY_MS = Number(process.env.BENCH_SPEECH_LATENCY_MS ?? 150);
const TURNS = Number(process.env.BENCH_SPEECH_TURNS ?? 12);
const RECORDINGS = Number(process.env.BENCH_RECORDINGS ?? 30);

const ms = (n: number) => formatMs(n);
const addedMs = (n: number) => `${formatAdded(n, 1)} ms`;
const mb = (n: number) => formatMb(n);

async function timed(run: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const res = await run();
  const body = await res.arrayBuffer();
  if (!res.ok || body.byteLength === 0) throw new Error(`${res.url}: ${res.status}`);
  return performance.now() - t0;
}

async function openBenchDatabase(
  kind: 'pglite' | 'postgres',
): Promise<{ database: Database; cleanUp: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'tw-bench-speech-'));
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    return { database, cleanUp: () => rm(dir, { recursive: true, force: true }) };
  }
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `tw_bench_speech_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
  return {
    database,
    cleanUp: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function benchOn(kind: 'pglite' | 'postgres') {
  const fake = await startFakeSpeechServer({ apiKey: null });
  fake.fallback = {
    speech: { kind: 'ok', latencyMs: LATENCY_MS },
    transcriptions: { kind: 'ok', latencyMs: LATENCY_MS },
  };
  const { database, cleanUp } = await openBenchDatabase(kind);
  await database.migrate();
  const config = loadConfig({
    SERVE_CLIENT: 'false',
    LOG_LEVEL: 'silent',
    BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
    IMAGE_PROVIDER: 'none',
    TTS_PROVIDER: 'openai',
    TTS_BASE_URL: fake.baseUrl,
    TTS_MODEL: 'bench-tts',
    TTS_VOICES: 'nova',
    TTS_MAX_PER_HOUR: '1000000',
    STT_PROVIDER: 'openai',
    STT_BASE_URL: fake.baseUrl,
    STT_MODEL: 'bench-whisper',
    STT_MAX_PER_HOUR: '1000000',
  });
  const app = await buildApp(config, { database, logger: false });
  const { url: base } = await listenAppOnLoopback(app);
  const rssBefore = process.memoryUsage().rss;
  try {
    const cookie = await registerOverHttp(base, `bench${randomBytes(4).toString('hex')}`, 'benchmark-password');
    const headers = { cookie, 'content-type': 'application/json' };
    const replies: Array<{ storyId: number; messageId: number; message: string }> = [];
    const start = await (
      await fetch(`${base}/api/story/start`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ prompt: 'A harbour town where the bells ring on their own' }),
      })
    ).json();
    replies.push(start);
    for (let turn = 1; turn < TURNS; turn += 1) {
      replies.push(
        await (
          await fetch(`${base}/api/story/${start.storyId}/continue`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ message: `I walk on, step ${turn}` }),
          })
        ).json(),
      );
    }

    // 1. Sentences: direct and through Taleweaver, interleaved; then replays.
    const direct: number[] = [];
    const through: number[] = [];
    const replay: number[] = [];
    const parts: Array<{ storyId: number; messageId: number; part: number }> = [];
    for (const reply of replies) {
      const count = splitSentences(reply.message).length;
      for (let part = 0; part < count; part += 1)
        parts.push({ storyId: reply.storyId, messageId: reply.messageId, part });
    }
    const sentenceOf = new Map(replies.map((r) => [r.messageId, splitSentences(r.message)]));
    for (const p of parts) {
      const input = sentenceOf.get(p.messageId)![p.part];
      direct.push(
        await timed(() =>
          fetch(`${fake.baseUrl}/audio/speech`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'bench-tts', voice: 'nova', input, response_format: 'mp3' }),
          }),
        ),
      );
      through.push(
        await timed(() =>
          fetch(`${base}/api/story/${p.storyId}/messages/${p.messageId}/speech/${p.part}?voice=nova`, {
            headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
          }),
        ),
      );
    }
    for (const p of parts)
      replay.push(
        await timed(() =>
          fetch(`${base}/api/story/${p.storyId}/messages/${p.messageId}/speech/${p.part}?voice=nova`, {
            headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
          }),
        ),
      );
    const added = through.map((t, i) => t - direct[i]);

    // 2. Recordings of 1 MB: direct multipart and through Taleweaver, interleaved.
    const recording = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(1024 * 1024 - 4)]);
    const sttDirect: number[] = [];
    const sttThrough: number[] = [];
    for (let i = 0; i < RECORDINGS; i += 1) {
      sttDirect.push(
        await timed(() => {
          const form = new FormData();
          form.append('file', new Blob([recording], { type: 'audio/webm' }), 'recording.webm');
          form.append('model', 'bench-whisper');
          form.append('response_format', 'json');
          return fetch(`${fake.baseUrl}/audio/transcriptions`, { method: 'POST', body: form });
        }),
      );
      sttThrough.push(
        await timed(() =>
          fetch(`${base}/api/speech/transcriptions`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'audio/webm;codecs=opus', 'x-requested-with': 'XMLHttpRequest' },
            body: recording,
          }),
        ),
      );
    }
    const sttAdded = sttThrough.map((t, i) => t - sttDirect[i]);
    const rssAfter = process.memoryUsage().rss;

    console.log(
      `\n### ${kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'}: ${parts.length} sentences from ${replies.length} replies, ${RECORDINGS} recordings of 1 MB, provider latency ${LATENCY_MS} ms\n`,
    );
    console.log('| what | p50 | p99 | added p50 / p99 |');
    console.log('|---|---|---|---|');
    console.log(`| sentence, provider direct | ${ms(percentile(direct, 50))} | ${ms(percentile(direct, 99))} | — |`);
    console.log(
      `| sentence through Taleweaver, first time (synthesised, kept, ledger row) | ${ms(percentile(through, 50))} | ${ms(percentile(through, 99))} | ${addedMs(percentile(added, 50))} / ${addedMs(percentile(added, 99))} |`,
    );
    console.log(
      `| sentence replayed (kept clip, no provider call) | ${ms(percentile(replay, 50))} | ${ms(percentile(replay, 99))} | ${(percentile(replay, 50) / percentile(direct, 50)).toFixed(2)}× the provider's p50 |`,
    );
    console.log(
      `| 1 MB recording, provider direct | ${ms(percentile(sttDirect, 50))} | ${ms(percentile(sttDirect, 99))} | — |`,
    );
    console.log(
      `| 1 MB recording through Taleweaver | ${ms(percentile(sttThrough, 50))} | ${ms(percentile(sttThrough, 99))} | ${addedMs(percentile(sttAdded, 50))} / ${addedMs(percentile(sttAdded, 99))} |`,
    );
    console.log(
      `\nRSS of this process (app, database${kind === 'pglite' ? ' in-process' : ' client'} and fake): ${mb(rssBefore)} before, ${mb(rssAfter)} after.`,
    );
    console.log(
      `Provider calls: ${fake.requests.filter((r) => r.path === 'speech').length} speech (${parts.length} direct + ${parts.length} first-time; replays made none), ${fake.requests.filter((r) => r.path === 'transcriptions').length} transcriptions.`,
    );
  } finally {
    await app.close();
    await database.close();
    await cleanUp();
    await fake.close();
  }
}

await benchOn('pglite');
if (process.env.TEST_DATABASE_URL) await benchOn('postgres');
