import type { Answer } from './http.js';

/** What the platform promises about every answer, whatever was sent. */

const leaks: [RegExp, string][] = [
  [/\n\s+at /, 'a stack trace'],
  [/ {4}at \S/, 'a stack trace'],
  [/\b(?:Type|Reference|Syntax|Range|Eval|URI|Aggregate)?Error: /, 'a JavaScript error'],
  [/(?:\/[\w.-]+)+\.(?:ts|js|mjs|cjs)\b/, 'a source file path'],
  [/node_modules|file:\/\//, 'an internal path'],
  [/\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT)\b/, 'a network error code'],
];

const isJson = (answer: Answer) =>
  (answer.headers.get('content-type') ?? '').includes('application/json');

interface ErrorBody {
  error?: {
    code?: unknown;
    message?: unknown;
    details?: { fields?: { location?: unknown; field?: unknown; message?: unknown }[] };
  };
}

/** Problems with an answer, empty when it keeps every promise. */
export function answerProblems(answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}`);
  if (answer.status >= 400 || isJson(answer)) {
    for (const [pattern, what] of leaks) {
      if (pattern.test(answer.text)) problems.push(`its body shows ${what}`);
    }
  }
  if (answer.status >= 400) {
    const error = (answer.json as ErrorBody | undefined)?.error;
    if (typeof error?.code !== 'string' || typeof error.message !== 'string') {
      problems.push('its error body is not { error: { code, message } }');
    }
  }
  if (answer.status === 400) problems.push(...badRequestProblems(answer));
  return problems;
}

/** A 400 must say which field is wrong: `field: problem`, and every field in details. */
function badRequestProblems(answer: Answer): string[] {
  const error = (answer.json as ErrorBody | undefined)?.error;
  const fields = error?.details?.fields;
  if (!Array.isArray(fields) || fields.length === 0) {
    return [`its 400 names no field in details.fields ("${String(error?.message)}")`];
  }
  const named = fields.filter(
    (entry) =>
      typeof entry.field === 'string' &&
      entry.field.length > 0 &&
      typeof entry.message === 'string' &&
      typeof entry.location === 'string',
  );
  if (named.length !== fields.length) return ['its 400 lists a field without a name or message'];
  const first = fields[0]?.field as string;
  return typeof error?.message === 'string' && error.message.startsWith(`${first}: `)
    ? []
    : [`its 400 message "${String(error?.message)}" does not start with "${first}: "`];
}

/** Short enough to read in a report. */
export const excerpt = (text: string, length = 300) =>
  text.length > length ? `${text.slice(0, length)}…` : text;
