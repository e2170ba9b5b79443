// A switch with its visible label and one line of help, tied together for screen readers.
import { useId } from 'react';
import { Label } from '@client/components/ui/label';
import { Switch } from '@client/components/ui/switch';

export interface SwitchFieldProps {
  label: string;
  hint: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}

export function SwitchField({ label, hint, checked, onCheckedChange, disabled = false }: SwitchFieldProps) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Switch
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        className="mt-0.5"
      />
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}
