// Every user-facing string of the story feature, so tests and UI agree.
export const STORY_STRINGS = {
  currentStoryTitle: 'Current Story',
  newStoryTitle: 'New Story',
  storyTitle: (storyId: string | number) => `Story ${storyId}`,
  loading: 'Loading your story…',

  loadingHeadline: 'Please wait while our AI crafts a unique narrative experience',
  loadingMessages: [
    'Crafting your unique narrative adventure',
    'Weaving together story elements and characters',
    'Building an immersive world just for you',
    'Bringing your story to life',
  ],
  creatingTitle: 'Creating Your Story',
  creatingText: "We're crafting your story...",
  writingStory: 'Writing story',

  chatLabel: 'Story',
  you: 'You',
  narrator: 'Narrator',
  thinking: 'Narrator is thinking...',
  inputPlaceholder: 'What would you like to do?',
  inputLabel: 'Your action',
  inputHint: 'Enter sends; Shift+Enter adds a new line.',
  send: 'Send',
  bookmark: 'Bookmark',
  shareStory: 'Share Story',
  retry: 'Retry',
  /** Beside Retry when a narrator failed and the player may pick another. */
  switchNarratorLabel: 'Or try another narrator',
  switchAndRetry: 'Switch and try again',
  tryAgain: 'Try again',
  /** The loop guard found the finished reply repeating the story and is writing it again. */
  rewriting: 'The narrator repeated itself: rewriting…',
  /** Under a reply the guard kept though it still repeats. */
  loopMarked: "This reply may repeat earlier ones. 'Try again' writes another.",
  regenerateLabel: 'Write this reply again',
  /** A settled reply's quiet 'i' and its panel: what the reply's calls cost, as the server priced them. */
  replyCostLabel: 'What this reply cost',
  storyExperience: 'Story Experience',
  storyExperienceText: 'Choose how this story is told to you.',
  /** The drawer's section of the story's own generation settings. */
  writingSection: 'Narrator’s Writing',
  writingHelp: 'For this story only; counts from the next reply.',
  narratorPick: 'Narrator',
  /** Under the picker: what the chosen narrator says of itself, and how much of the story it keeps in view. */
  narratorAbout: (description: string, contextTokens: number) =>
    `${description ? `${description} ` : ''}Keeps about ${contextTokens.toLocaleString('en-US')} tokens of the story in view.`,
  /** On the page itself, above the story, while the story's narrator is gone. */
  narratorGoneTitle: 'Your narrator is no longer available',
  narratorGone: (label: string) =>
    `The narrator this story had was removed or closed, so ${label} writes it now. Keep it, or pick another in 'Story Experience'.`,
  narratorKeepDefault: (label: string) => `Keep ${label}`,
  narratorFellBack:
    'The narrator this story had is no longer available, so the default narrator writes it now. Pick another to change that.',
  replyLength: 'Reply length',
  replyLengths: { short: 'Short', medium: 'Medium', long: 'Long' },
  creativity: 'Creativity',
  creativityValue: (t: number) => t.toFixed(1),
  creativityHelp: (max: number) =>
    max < 2
      ? `Lower keeps the narrator steady and predictable; higher lets it surprise you. This narrator goes up to ${max.toFixed(1)}: more is sent as ${max.toFixed(1)}.`
      : 'Lower keeps the narrator steady and predictable; higher lets it surprise you.',
  writingUnavailable: 'These settings could not be loaded.',

  noContent: 'No story content found. Try refreshing the page.',
  loadFailed: 'Story content could not be loaded properly.',
  refreshPage: 'Refresh Page',
  storyNotFound: 'Story not found',
  errorAlertTitle: 'Something went wrong',

  recoveryErrorTitle: 'Story Recovery Error',
  recoveryStoryId: (id: string) => `Story ID: ${id}`,
  recoveryMessageId: (id: string) => `Message ID: ${id}`,
  serverIssueTitle: 'Server Connection Issue',
  serverIssueText:
    'The server answered with a web page instead of story data. It may be restarting or behind a proxy; wait a moment and try again.',
  returnToBookmarks: 'Return to Bookmarks',
  tryAgainReload: 'Try Again',
  startNewStory: 'Start New Story',

  errorTitle: 'Error',
  noActiveStory: 'No active story. Please start a new story first.',
  failedToStart: 'Failed to start story',
  failedToSend: 'Failed to send message',
  failedToGenerate: 'Failed to generate story',
  failedToResume: 'Failed to resume story',
  failedToLoadBookmarked: 'Failed to load the bookmarked story',
  failedToRecover: 'Failed to recover story',
  recoveryErrorToastTitle: 'Recovery Error',
  invalidBookmark: 'Invalid bookmark data. Please try a different bookmark.',
  unanswered: 'The narrator has not answered your last action yet.',
  streamInterrupted: 'The connection was interrupted before the narrator finished. Please try again.',
  recoveryTimeout: 'The story took too long to load (15 seconds). Please try again.',

  continuingTitle: 'Continuing Story',
  continuingText: 'Resuming where you left off...',
  sessionExpired: 'Your session has ended. Log in again and your action will be sent.',
} as const;

/** Story API helper errors. */
export const STORY_API_MESSAGES = {
  serverError: 'Server error',
  invalidErrorBody: 'Server returned an invalid response',
  invalidSuccessBody: 'Invalid response format',
  nonJsonOnSend: 'Server returned an invalid response format. Please try again later.',
} as const;

/** Recovery response problems and the notices added to recovered stories. */
export const RECOVERY_MESSAGES = {
  html: 'Server returned HTML instead of JSON. Please try again later.',
  parse: 'Invalid response format from server. Please try again later.',
  noData: 'No data returned from server',
  noMessages: 'No messages found in the recovered data',
  notArray: 'Invalid message format in recovered story',
  emptyStory: 'This story has no messages yet. Describe what you would like to do to begin.',
  missingData: 'Note: This story was recovered with some missing data.',
} as const;
