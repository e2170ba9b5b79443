// The legal documents (privacy and terms), each a static text page with a Home button.
import { DocumentPage } from '@client/components/document-page';
import { LEGAL_HOME_LABEL, PRIVACY_POLICY, TERMS_OF_SERVICE } from '../content';

export function PrivacyPage() {
  return <DocumentPage document={PRIVACY_POLICY} homeLabel={LEGAL_HOME_LABEL} />;
}

export function TermsPage() {
  return <DocumentPage document={TERMS_OF_SERVICE} homeLabel={LEGAL_HOME_LABEL} />;
}
