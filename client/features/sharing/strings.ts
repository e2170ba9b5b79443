// User-facing strings of sharing: the share flow's dialogs and the shared story page. Where the spec
// names a text it is used verbatim; "the product" is Taleweaver.
import { PRODUCT_NAME } from '@shared/constants';

export const SHARING_STRINGS = {
  // Share flow
  shareTooltip: 'Share Story',
  nameDialogTitle: 'Name your story',
  nameDialogText: 'Give your story a title. Readers will see it at the top of the shared page.',
  titleLabel: 'Story title',
  titlePlaceholder: 'My Story',
  suggestingTitle: 'Suggesting a title…',
  cancel: 'Cancel',
  createLink: 'Share',
  creatingLink: 'Creating link…',
  shareDialogTitle: 'Share story',
  shareDialogText:
    'Anyone with this link can read your story as it is now. Later turns are not included unless you share again.',
  linkLabel: 'Share link',
  copyLink: 'Copy link',
  copiedTitle: 'Copied!',
  copiedText: 'Link copied to clipboard',
  copyFailed: 'Could not copy the link. Select it and copy it yourself.',
  messengerLinksTitle: 'Links for Messenger',
  messengerLinksText: "If the link doesn't open inside Messenger, send one of these instead.",
  messengerLinkLabels: ['Messenger link 1', 'Messenger link 2', 'Messenger link 3'],
  openShared: 'Open shared story',
  errorTitle: 'Error',
  shareFailed: 'Failed to share story',
  stopSharing: 'Stop sharing',
  stopConfirmText:
    'Turn this link off? Anyone who opens it will see that the story was removed. You can share the story again later with a new link.',
  stopConfirm: 'Turn the link off',
  stopping: 'Turning it off…',
  stoppedTitle: 'Sharing stopped',
  stoppedText: 'The link no longer opens your story.',
  stopFailed: 'Failed to stop sharing',

  // Shared story page
  createYourOwn: 'Create Your Own',
  sharedBadge: 'Shared Story',
  sampleBadge: 'Sample Story',
  gallery: 'Story Gallery',
  sceneLabel: (n: number) => `Scene ${n}`,
  narrative: 'Story Narrative',
  you: 'You',
  story: 'Story',
  sceneVisualization: 'Scene Visualization',
  readOnlyNotice: `This is a read-only view of a story shared from ${PRODUCT_NAME}. Only its author can continue it.`,
  ctaTitle: 'Write your own adventure',
  ctaText: 'Describe a scenario and the narrator will weave a story around your choices.',
  startYourStory: 'Start Your Story',
  loading: 'Loading shared story…',
  previewNote: `This is a preview. View the full story on ${PRODUCT_NAME}.`,
  sampleNoticeTitle: 'Showing a sample story',
  notAvailable: 'Story Not Available',
  tryAgain: 'Try Again',
  returnHome: 'Return Home',
  shareId: (shareId: string) => `Share ID: ${shareId}`,

  // Shared story errors
  notFound: 'Story not found or has been removed by its creator',
  loadFailed: 'Failed to load shared story',
  invalidJson: 'Invalid server response format',
  invalidData: 'Invalid story data received',
  expiredFallback: 'This shared story may have expired or been removed by its creator',
  missingShareId: 'Missing share id',
} as const;
