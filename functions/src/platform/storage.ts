import { DefaultAzureCredential } from '@azure/identity';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { settings } from './settings.js';

let blobService: BlobServiceClient | undefined;
let queueService: QueueServiceClient | undefined;

/** Blob service from `AzureWebJobsStorage`, or by managed identity when only URIs are set. */
export function blobServiceClient(): BlobServiceClient {
  if (!blobService) {
    const config = settings();
    blobService = config.AzureWebJobsStorage
      ? BlobServiceClient.fromConnectionString(config.AzureWebJobsStorage)
      : new BlobServiceClient(
          config.AzureWebJobsStorage__blobServiceUri as string,
          new DefaultAzureCredential(),
        );
  }
  return blobService;
}

export function queueServiceClient(): QueueServiceClient {
  if (!queueService) {
    const config = settings();
    queueService = config.AzureWebJobsStorage
      ? QueueServiceClient.fromConnectionString(config.AzureWebJobsStorage)
      : new QueueServiceClient(
          config.AzureWebJobsStorage__queueServiceUri as string,
          new DefaultAzureCredential(),
        );
  }
  return queueService;
}
