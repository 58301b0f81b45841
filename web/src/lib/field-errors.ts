import type { z } from 'zod';

/** A field's key in words: `firstName` -> "First name", `address.zip` -> "Zip". */
export function fieldLabel(key: string): string {
  const last = key.split('.').pop() ?? key;
  const words = last.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A field problem as a sentence. The services word some problems to follow the field's name
 * ("is required"), others whole ("Enter a valid email address").
 */
export function fieldSentence(key: string, message: string): string {
  return /^[a-z]/.test(message) ? `${fieldLabel(key)} ${message}` : message;
}

/** The problems a contract finds in a form, keyed by field, each as a sentence. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    errors[key] ??= fieldSentence(key, issue.message);
  }
  return errors;
}

/** What a form says above its fields when some are wrong, the details being beside each field. */
export const correctFieldsMessage = (count: number) =>
  count === 1 ? 'Please correct the highlighted field' : 'Please correct the highlighted fields';
