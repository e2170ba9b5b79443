// Every user-facing string of the allowance feature: the /tokens page (the auth page's token-purchase
// redirect lands there) and the story allowance figures it shares with Account Settings.
export const ALLOWANCE_STRINGS = {
  pageTitle: 'Tokens',
  pageDescription: 'Your story allowance and token purchases.',
  checkingSession: 'Checking your session…',
  loggedOutText: 'Please log in to see your story allowance.',
  loginButton: 'Login / Register',
  home: 'Home',
  accountSettings: 'Account Settings',

  /** There is no purchase flow: the page says so rather than pretending to sell anything. */
  purchasesUnavailableText: "Token purchases aren't available yet. Nothing has been charged.",
  chosenPackage: (name: string) => `You chose the "${name}" package.`,

  allowanceTitle: 'Story allowance',
  allowanceDescription: 'The tokens your stories and scenes can use each month.',
  remaining: 'Remaining this month',
  usedThisMonth: 'Used this month',
  spentThisMonth: 'Spent this month',
  resetsOn: 'Resets on',
  unlimited: 'Unlimited',
  unlimitedNote: 'Your stories have no monthly token limit.',
  allowanceUsedNote: (date: string) => `You have used this month's story allowance. It renews on ${date}.`,
  tokens: (amount: string) => `${amount} tokens`,
} as const;
