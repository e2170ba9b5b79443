// bench:abuse's bystander: another visitor, with no cookie, asking GET /api/captcha (the sign-up
// form's question) on a steady schedule while one player does something hostile. It runs in its
// own process (forked by abuse-harness.ts, driven over IPC) so the hostile client's work in the
// benchmark's process never delays its clock.
//
// Schedule: a slot every `everyMs`; never more than one request in flight. A request is sent at
// its slot and timed from sending to the whole answer read. When an answer takes longer than a
// slot, the slots that came due meanwhile are not sent (no catch-up burst after a freeze), but
// each is recorded as the wait a visitor arriving at that slot would have had: until the answer
// came (HdrHistogram's correction for coordinated omission). So a 2 s freeze in a 10 s window
// shows as a fifth of the samples being slow, not as one sample in 400.
import { Agent, request } from 'node:http';

export type BystanderCommand = { cmd: 'start'; base: string; everyMs: number } | { cmd: 'stop' };

export interface BystanderWindow {
  /** One per slot: the measured round trip, or the corrected wait of a slot skipped during a slow answer. */
  latenciesMs: number[];
  /** Requests actually sent. */
  requests: number;
  /** Answers other than 200 (e.g. 429), by status. */
  statuses: Record<string, number>;
  errors: number;
  firstError?: string;
}

const REQUEST_TIMEOUT_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function askCaptcha(agent: Agent, url: URL): Promise<{ status: number; error?: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: { accept: 'application/json' } }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (error) => resolve({ status: 0, error: error.message }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('no answer in time')));
    req.on('error', (error) => resolve({ status: 0, error: error.message }));
    req.end();
  });
}

let running = false;
let finished: Promise<BystanderWindow> | null = null;

async function poll(base: string, everyMs: number): Promise<BystanderWindow> {
  const window: BystanderWindow = { latenciesMs: [], requests: 0, statuses: {}, errors: 0 };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL('/api/captcha', base);
  let slot = performance.now();
  while (running) {
    const wait = slot - performance.now();
    if (wait > 0) await sleep(wait);
    if (!running) break;
    const sentAt = performance.now();
    const { status, error } = await askCaptcha(agent, url);
    const doneAt = performance.now();
    window.requests += 1;
    window.latenciesMs.push(doneAt - sentAt);
    if (error) {
      window.errors += 1;
      window.firstError ??= error;
    } else if (status !== 200) {
      window.statuses[status] = (window.statuses[status] ?? 0) + 1;
    }
    // Slots that came due while this answer was awaited: a visitor arriving then waited until now.
    slot += everyMs;
    for (; slot < doneAt; slot += everyMs) if (slot > sentAt) window.latenciesMs.push(doneAt - slot);
  }
  agent.destroy();
  return window;
}

process.on('message', (message: BystanderCommand) => {
  if (message.cmd === 'start') {
    running = true;
    finished = poll(message.base, message.everyMs);
  } else if (message.cmd === 'stop') {
    running = false;
    const window = finished ?? Promise.resolve(null);
    finished = null;
    void window.then((seen) => process.send?.({ window: seen }));
  }
});
process.on('disconnect', () => process.exit(0));
