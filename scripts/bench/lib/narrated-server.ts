// The real server for the benchmarks that play one story over HTTP against the OpenAI-compatible
// fake (bench:recall, bench:cache): server/main.ts through tsx on a fresh PGlite data dir, the
// player limits raised out of the way, and a signed-in poster of JSON that fails loudly on any
// answer but 200.
import { registerOverHttp, spawnServer, type SpawnedServer } from '../../../server/test/spawn-server';

export interface NarratedServer {
  server: SpawnedServer;
  base: string;
}

/** Starts the server on `dataDir`, narrated by the fake at `fakeBaseUrl`, with `env` on top. */
export async function startNarratedServer(
  fakeBaseUrl: string,
  dataDir: string,
  env: Record<string, string>,
): Promise<NarratedServer> {
  const server = spawnServer({
    DATA_DIR: dataDir,
    // Info: the "ready on" line spawnServer waits for is logged at info.
    LOG_LEVEL: 'info',
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fakeBaseUrl,
    LLM_API_KEY: 'sk-bench',
    LLM_MODEL: 'bench-model',
    REGISTER_MAX_PER_HOUR: '100000',
    CAPTCHA_MAX_PER_MINUTE: '100000',
    USER_TURNS_PER_HOUR: '1000000',
    USER_SIDE_CALLS_PER_HOUR: '1000000',
    ...env,
  });
  return { server, base: `http://127.0.0.1:${await server.port}` };
}

/** Registers `username` and answers a POST (or `method`) of JSON as them, its answer parsed (anything but 200 throws). */
export async function signedInPoster(base: string, username: string) {
  const cookie = await registerOverHttp(base, username, 'bench-password-1');
  return async (url: string, json: unknown, method = 'POST') => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(json),
    });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.json();
  };
}
