// The narrator catalogue as players meet it: which narrators a caller may pick, which one writes a
// story (its own while it is in the catalogue and open to the story's owner, else the default: a
// narrator that went away never breaks a story), which one writes each side call, and one provider
// per narrator, made on its first use.
import { createNarratorProvider } from '@server/ai/llm/registry';
import type { NarratorProvider } from '@server/ai/llm/types';
import type { CatalogueNarrator, NarratorCatalogue, NarratorTaskKind } from '@server/kernel/config';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { NARRATOR_MESSAGES, type NarratorsResponse } from '@shared/schemas/narrators';

export interface NarratorDeps {
  catalogue: NarratorCatalogue;
  /** The default narrator's provider as compose.ts made it (tests hand in a scripted one). */
  defaultProvider: NarratorProvider;
  users: { findById(id: number): Promise<{ isAdmin: boolean } | null> };
}

/** The narrator a story is written with, and whether it is not the one the story names. */
export interface StoryNarrator {
  narrator: CatalogueNarrator;
  /** The story names a narrator that left the catalogue or is closed to its owner: the default writes it. */
  fellBack: boolean;
}

export function createNarratorService(deps: NarratorDeps) {
  const { catalogue } = deps;
  const byId = new Map(catalogue.narrators.map((narrator) => [narrator.id, narrator]));
  // Start-up checked that the default is one of them.
  const defaultNarrator = byId.get(catalogue.defaultId) as CatalogueNarrator;
  /** A provider as the catalogue's narrator `id`: the same calls, its ledger rows named for the narrator. */
  const asNarrator = (id: string, made: NarratorProvider): NarratorProvider => ({
    get id() {
      return made.id;
    },
    get model() {
      return made.model;
    },
    narrator: id,
    generate: (request, onDelta) => made.generate(request, onDelta),
  });
  const providers = new Map<string, NarratorProvider>([
    [defaultNarrator.id, asNarrator(defaultNarrator.id, deps.defaultProvider)],
  ]);

  const mayUse = (narrator: CatalogueNarrator, isAdmin: boolean) => narrator.access === 'everyone' || isAdmin;
  const offered = (isAdmin: boolean) => catalogue.narrators.filter((narrator) => mayUse(narrator, isAdmin));
  const isAdmin = async (userId: number | null) =>
    userId !== null && (await deps.users.findById(userId))?.isAdmin === true;

  /**
   * The narrator an id names while it is in the catalogue and open to `userId` (a story's owner, a
   * player's preference, an import), else null. The player is read only for a narrator open to
   * admins alone.
   */
  async function preferred(id: string | null, userId: number): Promise<CatalogueNarrator | null> {
    const named = id === null ? undefined : byId.get(id);
    if (!named) return null;
    return named.access === 'everyone' || (await isAdmin(userId)) ? named : null;
  }

  /** The narrator that writes a story: the one it names while `preferred` allows it, else the default. */
  async function ofStory(story: { narrator: string | null; userId: number }): Promise<StoryNarrator> {
    const named = await preferred(story.narrator, story.userId);
    return named
      ? { narrator: named, fellBack: false }
      : { narrator: defaultNarrator, fellBack: story.narrator !== null };
  }

  /** The operator's narrator for a side call, if the catalogue names one (start-up checked it exists). */
  const taskNarrator = (task: NarratorTaskKind) => {
    const id = catalogue.tasks[task];
    return id === null ? undefined : byId.get(id);
  };

  return {
    /** The narrator of stories that name none; open to everyone. */
    defaultNarrator,

    /** Every narrator of the catalogue, in its order (the admin's figures and the metrics' labels). */
    all: (): readonly CatalogueNarrator[] => catalogue.narrators,

    /** What GET /api/narrators answers the caller (null: a visitor): names and windows, nothing else. */
    async list(userId: number | null): Promise<NarratorsResponse> {
      return {
        narrators: offered(await isAdmin(userId)).map((narrator) => ({
          id: narrator.id,
          label: narrator.label,
          description: narrator.description,
          contextTokens: narrator.llm.contextTokens,
          default: narrator.id === defaultNarrator.id,
        })),
      };
    },

    ofStory,

    preferred,

    /** A player's choice (a story's narrator, a preference): the narrator, or a 400 naming those they may pick. */
    async choose(id: string, userId: number): Promise<CatalogueNarrator> {
      const admin = await isAdmin(userId);
      const named = byId.get(id);
      if (named && mayUse(named, admin)) return named;
      const allowed = offered(admin).map((narrator) => narrator.id);
      throw new DomainError('invalid', ERROR_CODES.validation, NARRATOR_MESSAGES.unknown(allowed));
    },

    /** The narrator of a side call: the operator's for that task, else the story's own. */
    forTask(task: NarratorTaskKind, storyNarrator: CatalogueNarrator): CatalogueNarrator {
      return taskNarrator(task) ?? storyNarrator;
    },

    /** The same for a story not read yet: `story` is read only when the task has no narrator of its own. */
    async forTaskOf(
      task: NarratorTaskKind,
      story: () => Promise<{ narrator: string | null; userId: number } | null>,
    ): Promise<CatalogueNarrator> {
      const own = taskNarrator(task);
      if (own) return own;
      const found = await story();
      return found ? (await ofStory(found)).narrator : defaultNarrator;
    },

    /** The provider that writes with `narrator`, made once. */
    provider(narrator: CatalogueNarrator): NarratorProvider {
      let provider = providers.get(narrator.id);
      if (!provider) {
        provider = asNarrator(narrator.id, createNarratorProvider(narrator.llm));
        providers.set(narrator.id, provider);
      }
      return provider;
    },
  };
}

export type NarratorService = ReturnType<typeof createNarratorService>;
