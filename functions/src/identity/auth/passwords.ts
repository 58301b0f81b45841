import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { validationError } from '../../platform/validation.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../shared/common.schema.js';

/** OWASP's Argon2id baseline: 19 MiB, 2 iterations, 1 lane. */
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when no user has the email, so that both answers take as long.
let decoyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoyHash ??= hash('decoy password that matches nobody', ARGON2_OPTIONS);
  await verifyPassword(await decoyHash, password);
}

/**
 * Loaded and built on the first check rather than at load: its dictionaries hold about 30 MB of
 * heap, which the domain app (it loads this module through the registry) never needs.
 */
let zxcvbn: Promise<ZxcvbnFactory> | undefined;
const strengthChecker = () =>
  (zxcvbn ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([{ ZxcvbnFactory }, common, english]) =>
      new ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...english.dictionary },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
      }),
  ));

export const passwordPolicy = {
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  requireUppercase: true,
  requireLowercase: true,
  requireNumber: true,
  requireSpecial: true,
  rejectCommon: true,
  description:
    'At least 8 characters including uppercase, lowercase, a number and a special character. Common and easily guessed passwords are not accepted.',
};

const strengthLabels = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;

export async function passwordStrength(password: string, userInputs: string[] = []) {
  const checker = await strengthChecker();
  const result = await checker.check(password, ['lotwise', 'auction', ...userInputs]);
  const score = result.score as 0 | 1 | 2 | 3 | 4;
  return {
    score,
    label: strengthLabels[score],
    suggestions: [result.feedback.warning, ...result.feedback.suggestions].filter(
      (text): text is string => Boolean(text),
    ),
  };
}

/** Every rule the password breaks, in words a person can act on; empty when it is acceptable. */
export async function passwordProblems(
  password: string,
  context: { email?: string; name?: string } = {},
): Promise<string[]> {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) {
    problems.push(`Use at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    problems.push(`Use at most ${PASSWORD_MAX_LENGTH} characters`);
  }
  if (!/[A-Z]/.test(password)) problems.push('Include an uppercase letter');
  if (!/[a-z]/.test(password)) problems.push('Include a lowercase letter');
  if (!/[0-9]/.test(password)) problems.push('Include a number');
  if (!/[^A-Za-z0-9]/.test(password)) problems.push('Include a special character');
  const personal = [context.email?.split('@')[0], ...(context.name?.split(/\s+/) ?? [])].filter(
    (part): part is string => Boolean(part && part.length >= 3),
  );
  if (personal.some((part) => password.toLowerCase().includes(part.toLowerCase()))) {
    problems.push('Do not use your name or email address in your password');
  }
  if (password.length <= PASSWORD_MAX_LENGTH) {
    const { score } = await passwordStrength(password, personal);
    if (score < 2) problems.push('This password is too common or easy to guess');
  }
  return problems;
}

/** Refuses a password that breaks a rule with 400, naming the field and every problem. */
export async function assertAcceptablePassword(
  password: string,
  context: { email?: string; name?: string },
  field = 'password',
): Promise<void> {
  const problems = await passwordProblems(password, context);
  if (problems.length) {
    throw validationError(problems.map((message) => ({ location: 'body', field, message })));
  }
}

const alphabets = {
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  lower: 'abcdefghijkmnopqrstuvwxyz',
  digits: '23456789',
  symbols: '!@#$%^&*-_=+?',
};

/** A random password that meets the policy, from a cryptographic source. */
export function generatePassword(length: number): string {
  const sets = [alphabets.upper, alphabets.lower, alphabets.digits, alphabets.symbols];
  const all = sets.join('');
  const characters = sets.map((set) => set[randomInt(set.length)] as string);
  while (characters.length < length) characters.push(all[randomInt(all.length)] as string);
  for (let index = characters.length - 1; index > 0; index -= 1) {
    const swap = randomInt(index + 1);
    [characters[index], characters[swap]] = [
      characters[swap] as string,
      characters[index] as string,
    ];
  }
  return characters.join('');
}
