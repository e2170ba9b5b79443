// The ads feature's pieces: the ad block's texts and link, the 'Advertisement Settings' section
// (persisted under the ad-settings key, frequency slider disabled while in-chat ads are off,
// absent when the server shows no ads), and the loading screen's ad following its switch.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { adSettingsStore, DEFAULT_AD_SETTINGS, readAdSettings } from '../state/ad-settings';
import { AdBlock } from './ad-block';
import { AdSettingsSection } from './ad-settings-section';
import { LoadingAd } from './loading-ad';

function serveFeatures(ads: { enabled: boolean; sponsorUrl: string | null }) {
  return mockFetch((request) => {
    if (request.url === '/api/features')
      return jsonResponse({ images: false, speech: { voices: [], transcription: false }, ads });
    return jsonResponse({ message: 'Not found' }, { status: 404 });
  });
}

beforeEach(() => {
  localStorage.clear();
  adSettingsStore.reload();
});
afterEach(() => adSettingsStore.reload());

describe('AdBlock', () => {
  it('is a region announced as an ad, with the spec texts and a sponsored link opening in a new tab', () => {
    renderWithProviders(<AdBlock href="https://sponsor.example/offer" />);
    const region = screen.getByRole('region', { name: 'Ad: Support Taleweaver' });
    expect(region).toHaveTextContent('Ad');
    expect(region).toHaveTextContent('Support Taleweaver');
    expect(region).toHaveTextContent('Help us continue creating immersive experiences');
    const link = screen.getByRole('link', { name: /Visit Sponsor/ });
    expect(link).toHaveAttribute('href', 'https://sponsor.example/offer');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'sponsored noopener noreferrer');
  });
});

describe('ad settings', () => {
  it('default to ads on loading and in chat, frequency 3, level 1', () => {
    expect(readAdSettings()).toEqual({
      showOnLoading: true,
      showInChat: true,
      messageFrequency: 3,
      currentFrequencyLevel: 1,
    });
  });

  it('read each stored field on its own, replacing only the unreadable ones', () => {
    localStorage.setItem(
      LOCAL_STORAGE_KEYS.adSettings,
      JSON.stringify({ showOnLoading: false, showInChat: 'yes', messageFrequency: 11, currentFrequencyLevel: 4 }),
    );
    expect(readAdSettings()).toEqual({
      showOnLoading: false,
      showInChat: true,
      messageFrequency: 3,
      currentFrequencyLevel: 4,
    });
    localStorage.setItem(LOCAL_STORAGE_KEYS.adSettings, '{not json');
    expect(readAdSettings()).toEqual(DEFAULT_AD_SETTINGS);
  });
});

describe('AdSettingsSection', () => {
  it('saves each change under the ad-settings key and disables the frequency slider while in-chat ads are off', async () => {
    serveFeatures({ enabled: true, sponsorUrl: null });
    renderWithProviders(<AdSettingsSection />);
    expect(await screen.findByRole('heading', { name: 'Advertisement Settings' })).toBeVisible();
    const slider = screen.getByRole('slider', { name: 'Ad frequency' });
    expect(slider).toHaveValue('3');
    expect(slider).toHaveAttribute('min', '1');
    expect(slider).toHaveAttribute('max', '10');
    expect(slider).toHaveAttribute('step', '1');
    expect(slider).toBeEnabled();

    await userEvent.click(screen.getByRole('switch', { name: 'Show ads in the chat' }));
    expect(slider).toBeDisabled();
    expect(JSON.parse(localStorage.getItem(LOCAL_STORAGE_KEYS.adSettings) ?? '{}')).toMatchObject({
      showInChat: false,
    });

    await userEvent.click(screen.getByRole('switch', { name: 'Show ads in the chat' }));
    expect(slider).toBeEnabled();
    fireEvent.change(slider, { target: { value: '5' } });
    expect(slider).toHaveValue('5');
    expect(screen.getByText('Every 5 messages')).toBeVisible();
    await userEvent.click(screen.getByRole('switch', { name: 'Show ads while a story is created' }));
    expect(JSON.parse(localStorage.getItem(LOCAL_STORAGE_KEYS.adSettings) ?? '{}')).toEqual({
      showOnLoading: false,
      showInChat: true,
      messageFrequency: 5,
      currentFrequencyLevel: 1,
    });
  });

  it('is absent when the server shows no ads (ADS_ENABLED=false)', async () => {
    const fetchMock = serveFeatures({ enabled: false, sponsorUrl: null });
    renderWithProviders(<AdSettingsSection />);
    await waitFor(() => expect(fetchMock.requests.map((r) => r.url)).toContain('/api/features'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('heading', { name: 'Advertisement Settings' })).toBeNull();
    expect(screen.queryByRole('slider')).toBeNull();
  });
});

describe('LoadingAd', () => {
  it('shows a house ad for the support page when no sponsor is set', async () => {
    serveFeatures({ enabled: true, sponsorUrl: null });
    renderWithProviders(<LoadingAd />);
    expect(await screen.findByRole('link', { name: /Visit Sponsor/ })).toHaveAttribute('href', '/support');
  });

  it('links to the operator’s sponsor', async () => {
    serveFeatures({ enabled: true, sponsorUrl: 'https://sponsor.example/' });
    renderWithProviders(<LoadingAd />);
    expect(await screen.findByRole('link', { name: /Visit Sponsor/ })).toHaveAttribute(
      'href',
      'https://sponsor.example/',
    );
  });

  it('stays away when the player switched loading-screen ads off', async () => {
    adSettingsStore.update({ showOnLoading: false });
    const fetchMock = serveFeatures({ enabled: true, sponsorUrl: null });
    renderWithProviders(<LoadingAd />);
    await waitFor(() => expect(fetchMock.requests.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('region', { name: /Ad/ })).toBeNull();
  });
});
