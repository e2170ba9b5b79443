// Password hashing with Argon2id. The app hashes at the library's defaults (m=19 MiB, t=2, p=1, as
// OWASP recommends); the composition root may be handed a hasher with other costs, which only the
// test app does (a tenth of a millisecond a hash instead of ninety), so the suites that sign
// hundreds of players up spend their time on what they test. Nothing the operator sets reaches it.
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id is a const enum, which isolatedModules cannot inline; 2 is its value.
const ARGON2ID = 2;

export interface PasswordCost {
  /** KiB of memory a hash uses. */
  memoryCost: number;
  /** Passes over that memory. */
  timeCost: number;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a hash that cannot be read. */
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** A real hash of a random password, verified against when the login name is unknown so timing does not tell. */
  decoyHash(): Promise<string>;
}

/** Argon2id at `cost` (default: the library's). A hash records its cost, so verify reads any. */
export function createPasswordHasher(cost?: PasswordCost): PasswordHasher {
  const options = { algorithm: ARGON2ID, ...cost };
  const hashPassword = (password: string) => hash(password, options);
  let decoy: Promise<string> | null = null;
  return {
    hash: hashPassword,
    async verify(passwordHash, password) {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
    decoyHash() {
      decoy ??= hashPassword(`decoy-${Math.random()}`);
      return decoy;
    },
  };
}
