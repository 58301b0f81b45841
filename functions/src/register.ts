import type { app } from '@azure/functions';
import type { FunctionDefinition } from './platform/functions.js';

export type FunctionsApp = Pick<typeof app, 'http' | 'timer' | 'storageQueue'>;

/** Hands the route tables to the Functions runtime. */
export function registerFunctions(target: FunctionsApp, definitions: FunctionDefinition[]): void {
  for (const definition of definitions) {
    switch (definition.kind) {
      case 'http':
        target.http(definition.name, {
          route: definition.route,
          methods: definition.methods,
          authLevel: 'anonymous',
          handler: definition.handler,
        });
        break;
      case 'timer':
        target.timer(definition.name, {
          schedule: definition.schedule,
          handler: definition.handler,
        });
        break;
      case 'queue':
        target.storageQueue(definition.name, {
          queueName: definition.queueName,
          connection: 'AzureWebJobsStorage',
          handler: definition.handler,
        });
        break;
    }
  }
}
