// The microphone check: the Permissions API answers without prompting where it exists; otherwise
// getUserMedia is the check, and its stream is released at once.
import { describe, expect, it, vi } from 'vitest';
import { fakeStream } from '../testing/fakes';
import { createBrowserMicrophone } from './microphone';

const permissions = (state: PermissionState) => ({ query: vi.fn(async () => ({ state }) as PermissionStatus) });

describe('createBrowserMicrophone', () => {
  it.each(['granted', 'denied', 'prompt'] as const)(
    'reads %s from the Permissions API without prompting',
    async (state) => {
      const getUserMedia = vi.fn();
      const nav = { permissions: permissions(state), mediaDevices: { getUserMedia } };
      await expect(createBrowserMicrophone(nav).query()).resolves.toBe(state);
      expect(nav.permissions.query).toHaveBeenCalledWith({ name: 'microphone' });
      expect(getUserMedia).not.toHaveBeenCalled();
    },
  );

  it("answers 'unknown' without the Permissions API or when it does not know 'microphone'", async () => {
    await expect(createBrowserMicrophone({}).query()).resolves.toBe('unknown');
    const throwing = {
      query: vi.fn(async () => Promise.reject(new TypeError("'microphone' is not a valid PermissionName"))),
    };
    await expect(createBrowserMicrophone({ permissions: throwing }).query()).resolves.toBe('unknown');
  });

  it('probes with getUserMedia({audio: true}) and stops the tracks at once', async () => {
    const { stream, track } = fakeStream();
    const getUserMedia = vi.fn(async () => stream);
    await createBrowserMicrophone({ mediaDevices: { getUserMedia } }).probe();
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(track.stop).toHaveBeenCalled();
  });

  it.each(['NotAllowedError', 'SecurityError'])('reports %s as a refused microphone', async (name) => {
    const getUserMedia = vi.fn(async () => Promise.reject(new DOMException('no', name)));
    await expect(createBrowserMicrophone({ mediaDevices: { getUserMedia } }).probe()).rejects.toMatchObject({
      kind: 'permission-denied',
    });
  });

  it('reports a microphone that will not start (no device) as a start failure', async () => {
    const getUserMedia = vi.fn(async () => Promise.reject(new DOMException('none', 'NotFoundError')));
    await expect(createBrowserMicrophone({ mediaDevices: { getUserMedia } }).probe()).rejects.toMatchObject({
      kind: 'start-failed',
    });
  });

  it('reports a browser without navigator.mediaDevices as unsupported', async () => {
    await expect(createBrowserMicrophone({}).probe()).rejects.toMatchObject({ kind: 'unsupported' });
  });
});
