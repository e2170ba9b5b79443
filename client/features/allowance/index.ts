// The allowance feature's door: the usage page and the story allowance card the account page shows.
export { StoryAllowanceCard } from './components/story-allowance-card';
export { AllowancePage } from './lazy-page';
