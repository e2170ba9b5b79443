// /support: the small in-app 'Support Taleweaver' page a house ad leads to when the operator set no
// AD_SPONSOR_URL. Static text with a Home button, like the legal pages.
import { DocumentPage } from '@client/components/document-page';
import { ADS_STRINGS } from '../strings';

const SUPPORT_DOCUMENT = {
  title: ADS_STRINGS.supportPageTitle,
  summary: ADS_STRINGS.supportPageIntro,
  sections: ADS_STRINGS.supportPageSections,
};

export function SupportPage() {
  return <DocumentPage document={SUPPORT_DOCUMENT} homeLabel={ADS_STRINGS.home} />;
}
