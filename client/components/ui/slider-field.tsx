// A labelled range slider with its value shown beside the label and a line of help under it: the
// drawer's settings that are a number (the ads' frequency, a story's creativity). A native range
// input, so keyboard, touch and screen readers work as the browser makes them.
import { useId } from 'react';
import { cn } from '@client/lib/utils';

export interface SliderFieldProps {
  label: string;
  /** The value as the player reads it (also the slider's aria-valuetext). */
  valueText: string;
  help: string;
  min: number;
  max: number;
  step: number;
  value: number;
  disabled?: boolean;
  onValueChange: (value: number) => void;
}

export function SliderField({
  label,
  valueText,
  help,
  min,
  max,
  step,
  value,
  disabled,
  onValueChange,
}: SliderFieldProps) {
  const id = useId();
  const helpId = useId();
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center justify-between text-sm">
        <label htmlFor={id} className={cn('font-medium', disabled && 'opacity-60')}>
          {label}
        </label>
        <output htmlFor={id} className="text-muted-foreground tabular-nums">
          {valueText}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        disabled={disabled}
        aria-valuetext={valueText}
        aria-describedby={helpId}
        onChange={(event) => onValueChange(Number(event.target.value))}
        className="h-2 w-full cursor-pointer accent-[var(--gold)] disabled:cursor-not-allowed disabled:opacity-50"
      />
      <p id={helpId} className="text-sm text-muted-foreground">
        {help}
      </p>
    </div>
  );
}
