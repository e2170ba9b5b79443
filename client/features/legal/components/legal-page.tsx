// Renders one legal document (privacy or terms) as a readable article with a Home button.
import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { PageContainer } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { LEGAL_HOME_LABEL, PRIVACY_POLICY, TERMS_OF_SERVICE, type LegalDocument } from '../content';

function LegalPage({ document }: { document: LegalDocument }) {
  usePageTitle(document.title);
  return (
    <PageContainer>
      <Card>
        <CardHeader className="gap-3">
          <CardTitle as="h1" className="text-3xl">
            {document.title}
          </CardTitle>
          <p className="text-base leading-relaxed">{document.summary}</p>
        </CardHeader>
        <CardContent className="grid gap-6">
          {document.sections.map((section) => (
            <section key={section.heading} className="grid gap-2">
              <h2 className="text-xl font-semibold">{section.heading}</h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph} className="leading-relaxed text-muted-foreground">
                  {paragraph}
                </p>
              ))}
            </section>
          ))}
          <div className="pt-2">
            <Button asChild>
              <Link to="/">
                <Home aria-hidden="true" />
                {LEGAL_HOME_LABEL}
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </PageContainer>
  );
}

export function PrivacyPage() {
  return <LegalPage document={PRIVACY_POLICY} />;
}

export function TermsPage() {
  return <LegalPage document={TERMS_OF_SERVICE} />;
}
