// The networks an account has signed in from (repositories/known-networks.ts), which let its owner
// through the per-account login lock: ten wrong passwords from anywhere would otherwise lock the
// owner out too. Sign-ups, sign-ins and password changes remember them; the login asks.
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories } from '@server/db/repositories';

export interface KnownNetworkDeps {
  repos: Pick<Repositories, 'knownNetworks'>;
  now: () => Date;
  /** Where a network that could not be remembered is reported (the sign-in goes on). */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

const HOUR_MS = 60 * 60_000;
/** Networks remembered per account: a few homes, workplaces and phones' carriers. */
export const KNOWN_NETWORKS_PER_ACCOUNT = 10;
/** How long a network stays known after its last successful sign-in. */
export const KNOWN_NETWORK_MAX_AGE_MS = 180 * 24 * HOUR_MS;

/**
 * Runs once the sign-in (or the new account) already exists, so it never turns that success into
 * an error: a network not remembered only means one lock fewer to pass later.
 */
export function rememberNetwork(
  { repos, now, log }: KnownNetworkDeps,
  userId: number,
  network: string,
  keep = KNOWN_NETWORKS_PER_ACCOUNT,
): Promise<void> {
  return repos.knownNetworks.remember(userId, network, now(), keep).catch((error: unknown) => {
    log?.warn({ err: error, userId }, 'could not remember the network of a sign-in');
  });
}

export function isKnownNetwork({ repos, now }: KnownNetworkDeps, userId: number, network: string) {
  return repos.knownNetworks.isKnown(userId, network, new Date(now().getTime() - KNOWN_NETWORK_MAX_AGE_MS));
}
