// Local message ids: 21 random alphanumeric characters, from the browser's
// crypto source, so React keys stay unique before (or without) a server message id.
import { LOCAL_MESSAGE_ID_LENGTH } from '@shared/constants';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function createLocalMessageId(length = LOCAL_MESSAGE_ID_LENGTH): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
  let id = '';
  for (const byte of bytes) if (byte < 248) id += ALPHABET[byte % ALPHABET.length];
  return id.length === length ? id : id + createLocalMessageId(length - id.length);
}
