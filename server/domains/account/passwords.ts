// Password hashing with Argon2id (library defaults: m=19 MiB, t=2, p=1, as OWASP recommends).
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id is a const enum, which isolatedModules cannot inline; 2 is its value.
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A real hash of a random password, verified against when the login name is unknown so timing does not tell. */
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  return decoyHash;
}
