import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrorsOf, fieldLabel, fieldSentence } from './field-errors';

describe('field errors', () => {
  it('names a field in words', () => {
    expect(fieldLabel('firstName')).toBe('First name');
    expect(fieldLabel('address.zip')).toBe('Zip');
    expect(fieldLabel('confirmPassword')).toBe('Confirm password');
  });

  it('completes a problem worded to follow the field name, and keeps a whole one', () => {
    expect(fieldSentence('lastName', 'is required')).toBe('Last name is required');
    expect(fieldSentence('email', 'Enter a valid email address')).toBe(
      'Enter a valid email address',
    );
  });

  it('reads a contract’s problems with a form, the first per field', () => {
    const schema = z.object({
      email: z.email({ message: 'Enter a valid email address' }),
      name: z.string().min(1, 'is required').max(3, 'is too long'),
    });
    const result = schema.safeParse({ email: 'ada@', name: '' });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!)).toEqual({
      email: 'Enter a valid email address',
      name: 'Name is required',
    });
  });
});
