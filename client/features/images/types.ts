// A narrator reply's picture as the client keeps it (the product's image message states): being
// painted (polled), ready (with its URLs and the alt text the server wrote), or failed with a reason.
// `stalled` marks a pending picture whose status checks kept failing: polling stops until Retry.
export type ScenePicture =
  | { status: 'pending'; stalled?: boolean }
  | { status: 'ready'; url: string; thumbnail?: string; alt: string; width?: number; height?: number }
  | { status: 'failed'; reason: string };

export type ReadyPicture = Extract<ScenePicture, { status: 'ready' }>;
