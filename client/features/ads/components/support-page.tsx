// /support: the small in-app 'Support Taleweaver' page a house ad leads to when the operator set no
// AD_SPONSOR_URL. Static text with a Home button, like the legal pages.
import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { PageContainer } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { ADS_STRINGS } from '../strings';

export function SupportPage() {
  usePageTitle(ADS_STRINGS.supportPageTitle);
  return (
    <PageContainer>
      <Card>
        <CardHeader className="gap-3">
          <CardTitle as="h1" className="text-3xl">
            {ADS_STRINGS.supportPageTitle}
          </CardTitle>
          <p className="text-base leading-relaxed">{ADS_STRINGS.supportPageIntro}</p>
        </CardHeader>
        <CardContent className="grid gap-6">
          {ADS_STRINGS.supportPageSections.map((section) => (
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
                {ADS_STRINGS.home}
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
