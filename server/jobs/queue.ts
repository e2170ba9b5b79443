// The durable job queue: pg-boss 10 (the last line that runs on Node 20) over the app's own database,
// embedded PGlite or PostgreSQL alike, through Database.executeSql. Jobs live in the database
// (schema `pgboss`), so accepted work survives a restart or a kill -9, and with several instances
// on one PostgreSQL each job is fetched by exactly one of them (FOR UPDATE SKIP LOCKED).
import PgBoss from 'pg-boss';
import type { Database } from '@server/db/client';
import type { Log } from '@server/kernel/log';

export interface QueueOptions {
  /** How often a worker asks for new jobs when nobody woke it (send() wakes this instance's at once). */
  pollingSeconds?: number;
  /** How often expired jobs (their worker died) are failed into a retry. */
  maintenanceSeconds?: number;
}

export interface QueueJob<T> {
  id: string;
  data: T;
}

export interface JobQueue {
  /** Declares a queue: jobs retried `retryLimit` times, an active job past `expireInSeconds` counts as failed. */
  createQueue(name: string, options: { retryLimit: number; expireInSeconds: number }): Promise<void>;
  send<T extends object>(name: string, data: T): Promise<string>;
  /** Runs `handler` for jobs of `name`, at most `concurrency` at once in this instance. Throwing fails the job (then a retry). */
  work<T extends object>(
    name: string,
    concurrency: number,
    handler: (job: QueueJob<T>) => Promise<void>,
  ): Promise<void>;
  /**
   * Turns this queue's active jobs into failures now (so they are retried): used at start-up on
   * the embedded database, where the data-dir lock proves no other process can be running them.
   */
  failActive(name: string, reason: string): Promise<number>;
  /** Jobs of `name` waiting to run (created, or failed into a retry), for every instance: one count over pg-boss's index of waiting jobs. */
  waiting(name: string): Promise<number>;
  /** Stops fetching and waits for running jobs to finish (up to `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

/** pg-boss's tables live in this schema of the app's database. */
export const JOB_SCHEMA = 'pgboss';

export async function startJobQueue(database: Database, log: Log, options: QueueOptions = {}): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: JOB_SCHEMA,
    supervise: true,
    schedule: false,
    migrate: true,
    maintenanceIntervalSeconds: options.maintenanceSeconds ?? 30,
  });
  boss.on('error', (error: Error) => log.warn({ err: error }, 'job queue error'));
  await boss.start();
  const pollMs = (options.pollingSeconds ?? 2) * 1000;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  const loops: Array<Promise<void>> = [];
  // Idle loops sleep on these; send() and stop() wake them.
  const sleepers = new Map<string, Set<() => void>>();

  function nap(name: string): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.get(name)?.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, pollMs);
      if (!sleepers.has(name)) sleepers.set(name, new Set());
      sleepers.get(name)?.add(wake);
    });
  }
  const wakeAll = (name?: string) => {
    for (const [queue, set] of sleepers) if (!name || queue === name) for (const wake of [...set]) wake();
  };

  /**
   * One worker slot: fetch one job, run it, complete or fail it, repeat. Our own loop rather than
   * boss.work(), because stop() must wait for a fetch in flight too: pg-boss's stop does not, and
   * a job fetched after it returned would then run against a closed database.
   */
  async function slot<T>(name: string, handler: (job: QueueJob<T>) => Promise<void>): Promise<void> {
    while (!stopping) {
      let job: { id: string; data: unknown } | undefined;
      try {
        [job] = (await boss.fetch(name, { batchSize: 1 })) ?? [];
      } catch (error) {
        log.warn({ err: error, queue: name }, 'job fetch failed');
      }
      if (!job) {
        if (!stopping) await nap(name);
        continue;
      }
      try {
        await handler({ id: job.id, data: job.data as T });
        await boss.complete(name, job.id);
      } catch (error) {
        await boss
          .fail(name, job.id, { message: error instanceof Error ? error.message : String(error) })
          .catch((err: unknown) => log.warn({ err, queue: name }, 'could not record a failed job'));
      }
    }
  }

  return {
    async createQueue(name, { retryLimit, expireInSeconds }) {
      // createQueue is idempotent in pg-boss; updateQueue applies changed settings to an existing one.
      await boss.createQueue(name, { name, retryLimit, retryDelay: 0, expireInSeconds });
      await boss.updateQueue(name, { name, retryLimit, retryDelay: 0, expireInSeconds });
    },

    async send(name, data) {
      const id = await boss.send(name, data);
      if (!id) throw new Error(`job queue refused a job for ${name}`);
      // Wake this instance's idle workers: the job starts now, not at the next poll.
      wakeAll(name);
      return id;
    },

    async work(name, concurrency, handler) {
      for (let i = 0; i < concurrency; i += 1) loops.push(slot(name, handler));
    },

    async failActive(name, reason) {
      const { rows } = await database.executeSql(
        `SELECT id FROM ${JOB_SCHEMA}.job WHERE name = $1 AND state = 'active'`,
        [name],
      );
      const ids = (rows as Array<{ id: string }>).map((row) => row.id);
      for (const id of ids) await boss.fail(name, id, { message: reason });
      return ids.length;
    },

    async waiting(name) {
      const { rows } = await database.executeSql(
        `SELECT count(*)::int AS n FROM ${JOB_SCHEMA}.job WHERE name = $1 AND state < 'active'`,
        [name],
      );
      return (rows as Array<{ n: number }>)[0]?.n ?? 0;
    },

    // Once: the drain stops the queue, and closing the app asks again.
    stop(timeoutMs = 10_000) {
      stopped ??= (async () => {
        stopping = true;
        wakeAll();
        // Running jobs finish (a slow one is left active: the next start retries it).
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(loops), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
        clearTimeout(timer);
        await boss.stop({ graceful: false, wait: true, close: false });
      })();
      return stopped;
    },
  };
}
