// The images feature's door: scene pictures (entries, header picture, polling, requests), their settings and types.
export { IllustrateButton } from './components/illustrate-button';
export { SceneImageOptions } from './components/scene-image-options';
export { ScenePictureEntry } from './components/scene-picture-entry';
export { StoryHeaderImage } from './components/story-header-image';
export type { HeaderPicture } from './components/story-header-image';
export { ZoomableImage } from './components/zoomable-image';
export { usePicturePolling } from './hooks/use-picture-polling';
export { useRequestPicture } from './hooks/use-request-picture';
export { useSceneImageSettings } from './hooks/use-scene-image-settings';
export { IMAGES_STRINGS } from './strings';
export type { ReadyPicture, ScenePicture } from './types';
export { scenePictureSchema, toScenePicture } from './utils/scene-picture';
