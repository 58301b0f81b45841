import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** `hh:mm:ss` as host.json writes durations. */
const timeSpan = z
  .string()
  .regex(/^\d{2}:\d{2}:\d{2}$/)
  .transform((value) => {
    const [hours, minutes, seconds] = value.split(':').map(Number) as [number, number, number];
    return ((hours * 60 + minutes) * 60 + seconds) * 1000;
  });

const hostJsonSchema = z.object({
  extensions: z
    .object({
      http: z.object({ routePrefix: z.string().default('api') }).prefault({}),
      queues: z
        .object({
          maxPollingInterval: timeSpan.default(60_000),
          visibilityTimeout: timeSpan.default(0),
          batchSize: z.number().int().min(1).max(32).default(16),
          maxDequeueCount: z.number().int().min(1).default(5),
        })
        .prefault({}),
    })
    .prefault({}),
});

export type HostConfig = z.infer<typeof hostJsonSchema>;

/** The settings of host.json the dev host honours, with the Functions defaults. */
export function readHostConfig(path: string | URL): HostConfig {
  return hostJsonSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
