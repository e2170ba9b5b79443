// Every user-facing string of the ads feature, so tests and UI agree. The ad
// texts are the spec's: 'Support' plus the product name, the line under it, 'Visit Sponsor', 'Ad'.
import { PRODUCT_NAME } from '@shared/constants';

export const ADS_STRINGS = {
  label: 'Ad',
  title: `Support ${PRODUCT_NAME}`,
  text: 'Help us continue creating immersive experiences',
  visitSponsor: 'Visit Sponsor',
  /** Screen readers hear the link opens elsewhere. */
  opensInNewTab: '(opens in a new tab)',

  settingsSection: 'Advertisement Settings',
  settingsHelp: `Ads keep ${PRODUCT_NAME} running. They never interrupt a reply while it is being written.`,
  showOnLoading: 'Show ads while a story is created',
  showInChat: 'Show ads in the chat',
  frequency: 'Ad frequency',
  frequencyValue: (n: number) => (n === 1 ? 'Every message' : `Every ${n} messages`),
  frequencyHelpOn: 'After a story opens, ads space out until they reach this pace.',
  frequencyHelpOff: 'Turn on ads in the chat to change how often they appear.',

  supportPageTitle: `Support ${PRODUCT_NAME}`,
  supportPageIntro: `${PRODUCT_NAME} is made by a small team. The occasional ad you see pays for the servers and the AI models that write and illustrate your stories.`,
  supportPageSections: [
    {
      heading: 'How ads appear',
      paragraphs: [
        'Ads appear between turns of your story and on the screen shown while a new story is created. They never cover or split a reply while the narrator is writing it, never play sound or video, and are never seen by the narrator.',
        'Shared stories never show ads to the people you share them with.',
      ],
    },
    {
      heading: 'You decide how often',
      paragraphs: [
        "Open 'Story Experience' on any story page and choose 'Advertisement Settings': switch ads off while a story is created or in the chat, and set how often they may appear.",
      ],
    },
    {
      heading: 'Other ways to help',
      paragraphs: [
        'Share the stories you are proud of, and tell us what would make them better. Every story played keeps us going.',
      ],
    },
  ],
  home: 'Home',
} as const;
