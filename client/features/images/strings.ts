// Every user-facing string of scene images, verbatim where the spec
// names them, so tests and UI agree. The validation texts come from the shared schema.
import { IMAGE_MESSAGES } from '@shared/schemas/images';

export const IMAGES_STRINGS = {
  // Header image and image messages
  generatingImage: 'Generating image...',
  imageFailedToLoad: 'Image failed to load',
  noImageAvailable: 'No image available',
  generatedImage: 'Generated image',
  headerImageAlt: 'The opening scene of this story',
  headerLabel: 'Story image',
  sceneVisualization: 'Scene Visualization',
  zoomLabel: 'Enlarge the scene',
  retry: 'Retry',
  illustrate: 'Illustrate this scene',
  timedOut: 'Image generation timed out after multiple attempts',
  failedWithReason: (reason: string) => `Failed to generate image: ${reason}`,
  couldNotLoad: 'Image could not be loaded',

  // Toasts
  errorTitle: 'Error',
  generateFailed: 'Failed to generate image',
  generateFailedRetry: 'Failed to generate image. Please try again.',
  checkFailed: 'Failed to check image status. Please try again.',
  generationFailed: 'Image generation failed',
  fetchFailed: 'Failed to fetch image',

  // What generating an image needs
  storyNotInitialized: IMAGE_MESSAGES.storyNotInitialized,
  messageNotFound: IMAGE_MESSAGES.messageNotFound,
  noContent: IMAGE_MESSAGES.noContent,

  // The options drawer's image sections
  sceneImagesSection: 'Scene Images',
  generateToggle: 'Generate scene images',
  generateHelp: 'Paint a picture for each new narrator reply. Pictures take a little while to appear under the text.',
  visualStyleSection: 'Visual Style',
  visualStyleHelp:
    'Every picture of this story follows this sheet, so faces, hair and clothes stay the same from scene to scene.',
  artStyle: 'Art style',
  artStylePlaceholder: 'e.g. watercolour storybook, soft light',
  player: 'Your character',
  playerPlaceholder: 'e.g. a tall young woman with short red hair and a green travelling cloak',
  characters: 'Recurring characters',
  noCharacters: 'No recurring characters yet.',
  characterHeading: (n: number) => `Character ${n}`,
  characterName: 'Name',
  characterFace: 'Face',
  characterHair: 'Hair',
  characterClothes: 'Clothes',
  addCharacter: 'Add character',
  removeCharacter: (label: string) => `Remove ${label}`,
  saveStyle: 'Save style sheet',
  savingStyle: 'Saving…',
  loadingStyle: 'Loading the style sheet…',
  styleLoadFailed: 'The style sheet could not be loaded.',
  styleSavedTitle: 'Style sheet saved',
  styleSavedText: 'The next picture will follow it.',
  styleSaveFailed: 'Failed to save the style sheet',
} as const;
