// A static text page (the legal pages, the support page a house ad leads to): a title, a summary,
// headed sections of paragraphs and a Home button, as one readable card.
import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { PageContainer } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';

export interface TextDocument {
  title: string;
  summary: string;
  sections: ReadonlyArray<{ heading: string; paragraphs: readonly string[] }>;
}

export function DocumentPage({ document, homeLabel }: { document: TextDocument; homeLabel: string }) {
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
                {homeLabel}
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
