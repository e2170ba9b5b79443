// The ads' settings (ADS_*, AD_*): whether ads show, and where the sponsor's button leads.
import { booleanFlag, httpUrl } from './env';
import { setting, type ParsedSettings } from './setting';

export const adsSettings = {
  ADS_ENABLED: setting({
    group: 'Ads',
    doc: '`false` removes ads everywhere.',
    default: 'true',
    schema: booleanFlag('ADS_ENABLED'),
  }),
  AD_SPONSOR_URL: setting({
    group: 'Ads',
    doc: "The http(s) page 'Visit Sponsor' opens in a new tab; unset shows a house ad for 'Support Taleweaver'.",
    example: 'https://sponsor.example.com/taleweaver?ref=app',
    schema: httpUrl('AD_SPONSOR_URL'),
  }),
};

/** The ads (`config.ads`), read from their variables. */
export function adsConfig(e: ParsedSettings<typeof adsSettings>) {
  return {
    /** ADS_ENABLED=false removes ads everywhere. */
    enabled: e.ADS_ENABLED,
    /** Where 'Visit Sponsor' leads; null shows the house ad for the in-app 'Support Taleweaver' page. */
    sponsorUrl: e.AD_SPONSOR_URL ?? null,
  };
}
