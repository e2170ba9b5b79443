// Whether ads show on this server and where 'Visit Sponsor' leads: the operator's AD_SPONSOR_URL, or
// the in-app 'Support Taleweaver' page (a house ad). ADS_ENABLED=false removes ads entirely; until
// the server has answered (or when it cannot), no ad shows.
import { useFeatures } from '@client/lib/features';

export const SUPPORT_PAGE_PATH = '/support';

export interface AdsAvailability {
  enabled: boolean;
  href: string;
  isHouseAd: boolean;
}

export function useAds(): AdsAvailability {
  const ads = useFeatures().data?.ads;
  const sponsorUrl = ads?.sponsorUrl ?? null;
  return { enabled: ads?.enabled ?? false, href: sponsorUrl ?? SUPPORT_PAGE_PATH, isHouseAd: sponsorUrl === null };
}
