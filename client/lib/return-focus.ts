// Where focus goes when a dialog closes: back to the control that opened it, when that control is
// still on the page (a button in a list that changed meanwhile may not be); else the dialog's own
// default. Radix dialogs take this as onCloseAutoFocus.

/** The element, or a function that finds it when the dialog closes. */
type FocusTarget = HTMLElement | null | undefined | (() => HTMLElement | null | undefined);

export function returnFocusTo(target: FocusTarget): (event: Event) => void {
  return (event) => {
    const element = typeof target === 'function' ? target() : target;
    if (!element?.isConnected) return;
    event.preventDefault();
    element.focus();
  };
}
