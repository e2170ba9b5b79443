// Social-network in-app browsers (Facebook, Messenger, Instagram webviews) get the lightweight shared
// page: they are slow, memory-starved and often block heavy pages. Detected by the
// markers those apps put in their user agent, and only on /shared/ paths.
const IN_APP_MARKERS = ['FBAN', 'FBAV', 'FB_IAB', 'FB4A', 'FBIOS', 'Instagram', 'Messenger'];

export function isSocialInAppBrowser(userAgent: string): boolean {
  return IN_APP_MARKERS.some((marker) => userAgent.includes(marker));
}

export function isLightweightShare(
  pathname: string,
  userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent,
): boolean {
  return pathname.startsWith('/shared/') && isSocialInAppBrowser(userAgent);
}

/** The lightweight page's content: the message with the first image, and the first few turns without images. */
export function previewContent<T extends { image?: string }>(
  messages: T[],
  maxMessages: number,
): { image: (T & { image: string }) | null; messages: T[] } {
  const image = messages.find((m): m is T & { image: string } => Boolean(m.image)) ?? null;
  return { image, messages: messages.slice(0, maxMessages) };
}
