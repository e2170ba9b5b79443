// Renders the toast store through Radix Toast. The store keeps at most one toast, so a new toast
// replaces the one on screen instead of stacking.
import { ToastProvider, ToastViewport, Toast, ToastTitle, ToastDescription, ToastClose } from './toast';
import { dismissToast, useToastState } from './use-toast';

export function Toaster() {
  const { toasts } = useToastState();
  return (
    <ToastProvider>
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <Toast
          key={id}
          variant={variant}
          duration={duration}
          open={open}
          onOpenChange={(nextOpen) => {
            if (!nextOpen) dismissToast(id);
          }}
        >
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport />
    </ToastProvider>
  );
}
