// Sign-in limits that stop guessing without handing the account to the guesser. The
// per-account lock still holds against guesses, but the owner's right password from a network the
// account has signed in from (an IPv4 address, an IPv6 /64) passes it; guesses from such a network
// are refused and counted all the same. Every per-IP limit counts an IPv6 /64 as one address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerUser,
  TestClient,
  uniqueName,
  type RegisteredUser,
  type TestContext,
} from '@server/test/test-app';

const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 3;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    rateLimits: {
      loginMaxFailures: MAX_FAILURES,
      loginWindowMs: WINDOW_MS,
      registerPerHour: 2,
      captchaPerMinute: 1000,
    },
  });
});
afterAll(() => ctx.close());

let addresses = 0;
/** A fresh IPv4 address for one guess, so the per-IP limit never gets in the way of the account's. */
const stranger = () => {
  addresses += 1;
  return `10.60.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};
const login = (ip: string, username: string, password: string) =>
  new TestClient(ctx.app, ip).post('/api/login', { username, password });

async function lockOut(user: RegisteredUser) {
  for (let i = 0; i < MAX_FAILURES; i += 1)
    expect((await login(stranger(), user.username, 'wrong-password')).statusCode).toBe(401);
  expect((await login(stranger(), user.username, user.password)).statusCode).toBe(429);
}

async function knownNetworks(userId: number): Promise<string[]> {
  const result = await ctx.database.executeSql(
    'select network from known_sign_in_networks where user_id = $1 order by last_sign_in_at desc, network',
    [userId],
  );
  return (result.rows as Array<{ network: string }>).map((row) => row.network);
}

describe('a locked account', () => {
  it('lets its owner in from a network it signed in from, and no one else', async () => {
    const user = await registerUser(ctx.app, { ip: '10.61.0.1' });
    expect((await login('2001:db8:61:1::5', user.username, user.password)).statusCode).toBe(200);
    await lockOut(user);
    // Where it signed up, and anywhere in the /64 it signed in from.
    expect((await login('10.61.0.1', user.username, user.password)).statusCode).toBe(200);
    expect((await login('2001:db8:61:1:abcd::9', user.email, user.password)).statusCode).toBe(200);
    // Anyone else with the right password is still refused while the lock holds.
    const elsewhere = await login('10.61.0.2', user.username, user.password);
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json()).toEqual({
      message: 'Too many failed login attempts. Please try again later.',
      code: 'RATE_LIMITED',
    });
    expect((await login('2001:db8:61:2::5', user.username, user.password)).statusCode).toBe(429);
  });

  it("refuses and counts wrong passwords from the owner's network, per account and per IP", async () => {
    const user = await registerUser(ctx.app, { ip: '10.62.0.1' });
    await lockOut(user);
    ctx.clock.advance(WINDOW_MS / 2);
    // Someone behind the owner's NAT guessing: refused as locked, not told "wrong password"...
    for (let i = 0; i < MAX_FAILURES; i += 1) {
      const guess = await login('10.62.0.1', user.username, 'wrong-password');
      expect(guess.statusCode).toBe(429);
      expect(guess.json().code).toBe('RATE_LIMITED');
    }
    // ...and counted per IP: that address has used its failures, the right password included.
    expect((await login('10.62.0.1', user.username, user.password)).statusCode).toBe(429);
    // And per account: once the first failures have left the window, these still lock it.
    ctx.clock.advance(WINDOW_MS / 2 + 1);
    expect((await login(stranger(), user.username, user.password)).statusCode).toBe(429);
    ctx.clock.advance(WINDOW_MS / 2);
    expect((await login(stranger(), user.username, user.password)).statusCode).toBe(200);
  });

  it("keeps its failures when the owner passes the lock, so the owner's sign-in buys the guesser nothing", async () => {
    const user = await registerUser(ctx.app, { ip: '10.63.0.1' });
    await lockOut(user);
    expect((await login('10.63.0.1', user.username, user.password)).statusCode).toBe(200);
    expect((await login(stranger(), user.username, 'wrong-password')).statusCode).toBe(429);
    expect((await login(stranger(), user.username, user.password)).statusCode).toBe(429);
  });

  it('forgets a network after 180 days without a sign-in from it', async () => {
    const user = await registerUser(ctx.app, { ip: '10.64.0.1' });
    expect((await login('10.64.0.2', user.username, user.password)).statusCode).toBe(200);
    ctx.clock.advance(181 * 24 * 60 * 60_000);
    expect((await login('10.64.0.2', user.username, user.password)).statusCode).toBe(200);
    await lockOut(user);
    expect((await login('10.64.0.1', user.username, user.password)).statusCode).toBe(429);
    expect((await login('10.64.0.2', user.username, user.password)).statusCode).toBe(200);
  });
});

describe('known networks', () => {
  it('are the ten most recent per account', async () => {
    const user = await registerUser(ctx.app, { ip: '10.65.0.1' });
    for (let i = 2; i <= 11; i += 1) {
      ctx.clock.advance(1000);
      expect((await login(`10.65.0.${i}`, user.username, user.password)).statusCode).toBe(200);
    }
    expect(await knownNetworks(user.id)).toEqual(Array.from({ length: 10 }, (_, i) => `10.65.0.${11 - i}`));
    // Signing in again from a known one moves it to the front without dropping another.
    ctx.clock.advance(1000);
    expect((await login('10.65.0.2', user.username, user.password)).statusCode).toBe(200);
    const known = await knownNetworks(user.id);
    expect(known).toHaveLength(10);
    expect(known[0]).toBe('10.65.0.2');
    await lockOut(user);
    expect((await login('10.65.0.1', user.username, user.password)).statusCode).toBe(429);
    expect((await login('10.65.0.11', user.username, user.password)).statusCode).toBe(200);
  });

  it('shrink to the current one when the password changes, and go with the account', async () => {
    const user = await registerUser(ctx.app, { ip: '10.66.0.1' });
    const other = new TestClient(ctx.app, '10.66.0.2');
    ctx.clock.advance(1000);
    expect((await other.post('/api/login', { username: user.username, password: user.password })).statusCode).toBe(200);
    expect(await knownNetworks(user.id)).toEqual(['10.66.0.2', '10.66.0.1']);
    expect(
      (await other.post('/api/settings/password', { currentPassword: user.password, newPassword: 'a new secret 123' }))
        .statusCode,
    ).toBe(200);
    expect(await knownNetworks(user.id)).toEqual(['10.66.0.2']);
    expect(
      (await other.request({ method: 'DELETE', url: '/api/user', json: { password: 'a new secret 123' } })).statusCode,
    ).toBe(200);
    expect(await knownNetworks(user.id)).toEqual([]);
  });

  it('are not made by a failed sign-in, nor by an unknown name', async () => {
    const user = await registerUser(ctx.app, { ip: '10.67.0.1' });
    expect((await login('10.67.0.2', user.username, 'wrong-password')).statusCode).toBe(401);
    expect((await login('10.67.0.3', uniqueName(), user.password)).statusCode).toBe(401);
    expect(await knownNetworks(user.id)).toEqual(['10.67.0.1']);
  });
});

describe('per-IP limits count an IPv6 /64 as one address', () => {
  it('for sign-ups', async () => {
    await registerUser(ctx.app, { ip: '2001:db8:68:1::1' });
    await registerUser(ctx.app, { ip: '2001:db8:68:1::2' });
    await expect(registerUser(ctx.app, { ip: '2001:db8:68:1:ffff::3' })).rejects.toThrow(/429.*Too many accounts/);
    await registerUser(ctx.app, { ip: '2001:db8:68:2::1' });
  });

  it('for failed sign-ins', async () => {
    const user = await registerUser(ctx.app, { ip: '10.69.0.1' });
    for (let i = 1; i <= MAX_FAILURES; i += 1)
      expect((await login(`2001:db8:69:1::${i}`, uniqueName(), 'wrong-password')).statusCode).toBe(401);
    expect((await login('2001:db8:69:1::99', user.username, user.password)).statusCode).toBe(429);
    expect((await login('2001:db8:69:2::1', user.username, user.password)).statusCode).toBe(200);
  });
});
