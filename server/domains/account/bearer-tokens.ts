// Random bearer tokens (256 bits, base64url) and the SHA-256 digests stored in their place.
import { createHash, randomBytes } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function digestToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
