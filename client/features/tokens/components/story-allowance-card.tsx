// The 'Story allowance' card Account Settings shows under its heading: the shared allowance
// figures, read afresh, in the same card style as the settings sections.
import { Gauge } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { useTokenUsage } from '../hooks/use-token-usage';
import { TOKENS_STRINGS } from '../strings';
import { AllowanceFigures } from './allowance-figures';

export function StoryAllowanceCard() {
  const usage = useTokenUsage();
  if (!usage) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-xl">
          <Gauge className="size-5 text-gold" aria-hidden="true" />
          {TOKENS_STRINGS.allowanceTitle}
        </CardTitle>
        <CardDescription>{TOKENS_STRINGS.allowanceDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <AllowanceFigures usage={usage} />
      </CardContent>
    </Card>
  );
}
