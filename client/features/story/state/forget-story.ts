// A story deleted elsewhere (the library's 'Delete Story') is forgotten by the tab: the story on
// screen is reset when it was that one, and the tab's saved copy cleared, so 'Current Story' no
// longer leads to it.
import { clearSavedStory, loadSavedStory } from './persistence';
import { storyController } from './story-controller';

export function forgetStory(storyId: number): void {
  const current = storyController.store.getState();
  if (current.storyId === storyId) storyController.reset(current.ownerId);
  if (loadSavedStory()?.storyId === storyId) clearSavedStory();
}
