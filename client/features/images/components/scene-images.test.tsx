// The picture widgets: the chat's picture entry in each state (being painted, ready and zoomable,
// not loadable with Retry, failed with its reason and Retry), the 16:9 boxes that keep text still,
// and the story header's three states.
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ScenePictureEntry } from './scene-picture-entry';
import { StoryHeaderImage } from './story-header-image';

const READY = {
  status: 'ready',
  url: '/api/images/abc.webp',
  thumbnail: '/api/images/abc.thumb.webp',
  alt: 'A lighthouse in a storm',
  width: 1024,
  height: 576,
} as const;

describe('ScenePictureEntry', () => {
  it('shows the ready picture lazily from its thumbnail, in a 16:9 box, and zooms it in the Scene Visualization dialog', async () => {
    render(<ScenePictureEntry picture={READY} text="Generated image" canRetry onRetry={vi.fn()} retrying={false} />);
    const img = screen.getByRole('img', { name: 'A lighthouse in a storm' });
    expect(img).toHaveAttribute('src', '/api/images/abc.thumb.webp');
    expect(img).toHaveAttribute('srcset', '/api/images/abc.thumb.webp 320w, /api/images/abc.webp 1024w');
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img.closest('[data-image-state]')).toHaveClass('aspect-video');

    await userEvent.click(screen.getByRole('button', { name: 'A lighthouse in a storm' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scene Visualization' });
    expect(within(dialog).getByRole('img', { name: 'A lighthouse in a storm' })).toHaveAttribute(
      'src',
      '/api/images/abc.webp',
    );
    expect(within(dialog).getByText('A lighthouse in a storm')).toBeInTheDocument();
  });

  it("says 'Image could not be loaded' when the picture will not load, and Retry loads it again", async () => {
    render(<ScenePictureEntry picture={READY} text="Generated image" canRetry onRetry={vi.fn()} retrying={false} />);
    fireEvent.error(screen.getByRole('img', { name: 'A lighthouse in a storm' }));
    expect(screen.getByText('Image could not be loaded')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByRole('img', { name: 'A lighthouse in a storm' })).toBeInTheDocument();
    expect(screen.queryByText('Image could not be loaded')).not.toBeInTheDocument();
    fireEvent.load(screen.getByRole('img', { name: 'A lighthouse in a storm' }));
    expect(screen.getByRole('img', { name: 'A lighthouse in a storm' }).closest('[data-image-state]')).toHaveAttribute(
      'data-image-state',
      'loaded',
    );
  });

  it('offers no Retry while pictures are switched off', () => {
    render(
      <ScenePictureEntry picture={READY} text="Generated image" canRetry={false} onRetry={vi.fn()} retrying={false} />,
    );
    fireEvent.error(screen.getByRole('img', { name: 'A lighthouse in a storm' }));
    expect(screen.getByText('Image could not be loaded')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it("shows 'Generating image...' while the picture is painted, in the box the picture will fill", () => {
    const { container } = render(
      <ScenePictureEntry
        picture={{ status: 'pending' }}
        text="Generating image..."
        canRetry
        onRetry={vi.fn()}
        retrying={false}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Generating image...');
    expect(container.querySelector('.aspect-video')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('offers Retry for a picture whose checks failed, and for a failed one with its reason', async () => {
    const onRetry = vi.fn();
    const { rerender } = render(
      <ScenePictureEntry
        picture={{ status: 'pending', stalled: true }}
        text="Generating image..."
        canRetry
        onRetry={onRetry}
        retrying={false}
      />,
    );
    expect(screen.getByText('Image could not be loaded')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);

    rerender(
      <ScenePictureEntry
        picture={{ status: 'failed', reason: 'The painter is unavailable right now.' }}
        text="Failed to generate image: The painter is unavailable right now."
        canRetry
        onRetry={onRetry}
        retrying={false}
      />,
    );
    expect(screen.getByRole('article', { name: 'Scene Visualization' })).toHaveTextContent(
      'Failed to generate image: The painter is unavailable right now.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(2);

    rerender(
      <ScenePictureEntry
        picture={{ status: 'failed', reason: 'x' }}
        text="Failed to generate image: x"
        canRetry={false}
        onRetry={onRetry}
        retrying={false}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});

describe('StoryHeaderImage', () => {
  it("shows a spinner with 'Generating image...' while the opening's picture is painted", () => {
    render(<StoryHeaderImage picture={{ status: 'pending' }} />);
    const header = screen.getByRole('region', { name: 'Story image' });
    expect(within(header).getByRole('status')).toHaveTextContent('Generating image...');
    expect(header.querySelector('.aspect-video')).not.toBeNull();
  });

  it("says 'No image available' when there is none", () => {
    render(<StoryHeaderImage picture={{ status: 'none' }} />);
    expect(screen.getByRole('region', { name: 'Story image' })).toHaveTextContent('No image available');
  });

  it("shows the picture, and 'Image failed to load' when it will not load", () => {
    render(<StoryHeaderImage picture={{ status: 'ready', url: '/api/images/abc.webp', alt: 'A harbour at dusk' }} />);
    const img = screen.getByRole('img', { name: 'A harbour at dusk' });
    expect(img).toHaveAttribute('src', '/api/images/abc.webp');
    expect(img.closest('[data-image-state]')).toHaveClass('aspect-video');
    fireEvent.error(img);
    expect(screen.getByText('Image failed to load')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});
