// The 'Story allowance' card Account Settings shows under its heading: the shared allowance
// figures, read afresh, in the same card style as the settings sections.
import { Gauge } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { useAllowanceUsage } from '../hooks/use-allowance-usage';
import { ALLOWANCE_STRINGS } from '../strings';
import { AllowanceFigures } from './allowance-figures';

export function StoryAllowanceCard() {
  const usage = useAllowanceUsage();
  if (!usage) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-xl">
          <Gauge className="size-5 text-gold" aria-hidden="true" />
          {ALLOWANCE_STRINGS.allowanceTitle}
        </CardTitle>
        <CardDescription>{ALLOWANCE_STRINGS.allowanceDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <AllowanceFigures usage={usage} />
      </CardContent>
    </Card>
  );
}
