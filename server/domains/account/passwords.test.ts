// The password hasher at the app's costs (what every player's password gets) and at the test app's
// small ones: a hash records its algorithm and costs, verifies its own password and no other, and a
// hash that cannot be read is a wrong password, not a crash.
import { describe, expect, it } from 'vitest';
import { createPasswordHasher } from './passwords';

describe('password hasher', () => {
  it('hashes with Argon2id at the library defaults unless told otherwise', async () => {
    const hasher = createPasswordHasher();
    const stored = await hasher.hash('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(stored, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(stored, 'correct horse battery!')).toBe(false);
  });

  it('hashes at the costs it is given, and any hasher verifies any cost', async () => {
    const cheap = createPasswordHasher({ memoryCost: 8, timeCost: 1 });
    const stored = await cheap.hash('a long passphrase');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(await createPasswordHasher().verify(stored, 'a long passphrase')).toBe(true);
  });

  it('salts every hash', async () => {
    const hasher = createPasswordHasher({ memoryCost: 8, timeCost: 1 });
    const [first, second] = await Promise.all([hasher.hash('same'), hasher.hash('same')]);
    expect(first).not.toBe(second);
  });

  it('answers false for a hash it cannot read', async () => {
    const hasher = createPasswordHasher();
    expect(await hasher.verify('$argon2id$not-a-real-hash', 'anything')).toBe(false);
    expect(await hasher.verify('', 'anything')).toBe(false);
  });

  it('keeps one decoy hash, of no password anyone knows', async () => {
    const hasher = createPasswordHasher({ memoryCost: 8, timeCost: 1 });
    const decoy = await hasher.decoyHash();
    expect(await hasher.decoyHash()).toBe(decoy);
    expect(decoy).toMatch(/^\$argon2id\$/);
    expect(await hasher.verify(decoy, '')).toBe(false);
    expect(await hasher.verify(decoy, 'decoy-')).toBe(false);
  });
});
