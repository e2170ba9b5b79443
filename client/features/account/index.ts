// The account feature's door: the account page and the Email Required gate the layout wraps pages in.
export { EmailRequiredGate } from './components/email-required-gate';
export { AccountPage } from './lazy-page';
