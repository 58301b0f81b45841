import { useEffect, useRef, type RefObject } from 'react';

/**
 * Moves the focus to the first field a form marks invalid whenever a check finds problems, so a
 * problem scrolled out of sight (a long form, a 400 from the service) is where one lands.
 */
export function useFocusFirstError(
  errors: Record<string, string>,
): RefObject<HTMLFormElement | null> {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!Object.keys(errors).length) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return form;
}
