// Builds every repository over one Drizzle handle; services receive this bundle.
import type { Db } from '../client';
import { createAdminUsersRepository } from './admin-users';
import { createAllowanceRepository } from './allowance';
import { createBookmarksRepository } from './bookmarks';
import { createScenarioLikesRepository } from './scenario-likes';
import { createScenariosRepository } from './scenarios';
import { createCaptchasRepository } from './captchas';
import { createImagesRepository } from './images';
import { createKnownNetworksRepository } from './known-networks';
import { createLibraryRepository } from './library';
import { createMemoryBankRepository } from './memory-bank';
import { createMemoryVectorsRepository } from './memory-vectors';
import { createPreferencesRepository } from './preferences';
import { createQuotasRepository } from './quotas';
import { createRateLimitsRepository } from './rate-limits';
import { createSessionsRepository } from './sessions';
import { createSharesRepository } from './shares';
import { createSpeechRepository } from './speech';
import { createStoriesRepository } from './stories';
import { createStoryBibleRepository } from './story-bible';
import { createStoryBranchesRepository } from './story-branches';
import { createStoryCardsRepository } from './story-cards';
import { createStoryFilesRepository } from './story-files';
import { createStoryVersionsRepository } from './story-versions';
import { createUsageRepository, type UsageEvent } from './usage';
import { createUsersRepository } from './users';

/** Told of every ledger row once its statement committed (the app's metrics count tokens by kind). */
export interface LedgerObserver {
  ledgerRow(row: UsageEvent): void;
}

export function createRepositories(db: Db, ledger?: LedgerObserver) {
  const repos = {
    users: createUsersRepository(db),
    sessions: createSessionsRepository(db),
    captchas: createCaptchasRepository(db),
    rateLimits: createRateLimitsRepository(db),
    knownNetworks: createKnownNetworksRepository(db),
    usage: createUsageRepository(db),
    allowance: createAllowanceRepository(db),
    adminUsers: createAdminUsersRepository(db),
    stories: createStoriesRepository(db),
    library: createLibraryRepository(db),
    storyFiles: createStoryFilesRepository(db),
    storyVersions: createStoryVersionsRepository(db),
    storyBranches: createStoryBranchesRepository(db),
    storyCards: createStoryCardsRepository(db),
    memoryBank: createMemoryBankRepository(db),
    memoryVectors: createMemoryVectorsRepository(db),
    storyBible: createStoryBibleRepository(db),
    bookmarks: createBookmarksRepository(db),
    scenarios: createScenariosRepository(db),
    scenarioLikes: createScenarioLikesRepository(db),
    shares: createSharesRepository(db),
    preferences: createPreferencesRepository(db),
    images: createImagesRepository(db),
    speech: createSpeechRepository(db),
    quotas: createQuotasRepository(db),
  };
  if (ledger) observeLedger(repos, ledger);
  return repos;
}
export type Repositories = ReturnType<typeof createRepositories>;

/** The four statements that write usage_events, each reported after it committed. */
function observeLedger(repos: Repositories, ledger: LedgerObserver): void {
  const { usage, stories, images, speech } = repos;
  const record = usage.record.bind(usage);
  usage.record = async (event) => {
    await record(event);
    ledger.ledgerRow(event);
  };
  const saveReply = stories.saveReply.bind(stories);
  stories.saveReply = async (input) => {
    const saved = await saveReply(input);
    if (input.usage) ledger.ledgerRow(input.usage);
    return saved;
  };
  const complete = images.complete.bind(images);
  images.complete = async (id, asset, event, now) => {
    const done = await complete(id, asset, event, now);
    if (done) ledger.ledgerRow(event);
    return done;
  };
  const saveClip = speech.saveClip.bind(speech);
  speech.saveClip = async (clip) => {
    await saveClip(clip);
    ledger.ledgerRow(clip.usage);
  };
}
