// Browser entry point: styles, then the React root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startEarlyStoryRead } from './lib/early-story-read';
import './index.css';

// Before React and the story page's code load: a story's first read starts now.
startEarlyStoryRead(window.location);

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
