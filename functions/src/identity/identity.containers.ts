import type { ContainerDefinition } from '../platform/cosmos.js';

/** People are global (one person can belong to several accounts); everything else is not. */
export const identityContainers: ContainerDefinition[] = [
  { id: 'users', partitionKey: '/id' },
  {
    id: 'accounts',
    partitionKey: '/accountId',
    compositeIndexes: [
      [
        { path: '/type', order: 'ascending' },
        { path: '/name', order: 'ascending' },
      ],
    ],
  },
  { id: 'sessions', partitionKey: '/userId' },
  { id: 'tokens', partitionKey: '/id' },
  { id: 'throttle', partitionKey: '/id' },
];
