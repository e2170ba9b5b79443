// Builds every repository over one Drizzle handle; services receive this bundle.
import type { Db } from '../client';
import { createAdminUsersRepository } from './admin-users';
import { createAllowanceRepository } from './allowance';
import { createBookmarksRepository } from './bookmarks';
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
import { createUsageRepository } from './usage';
import { createUsersRepository } from './users';

export function createRepositories(db: Db) {
  return {
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
    shares: createSharesRepository(db),
    preferences: createPreferencesRepository(db),
    images: createImagesRepository(db),
    speech: createSpeechRepository(db),
    quotas: createQuotasRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;
