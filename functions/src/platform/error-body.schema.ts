import { z } from 'zod';

/** The body of every error answer from every service. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBodyContract = z.infer<typeof errorBodySchema>;
