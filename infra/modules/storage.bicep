param accountName string
param location string
@description('Web origins that put Data Processing uploads straight into Blob Storage')
param corsOrigins array

resource account 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: accountName
  location: location
  sku: { name: 'Standard_LRS' }
  kind: 'StorageV2'
  properties: {
    minimumTlsVersion: 'TLS1_2'
    allowBlobPublicAccess: false
    // The apps reach Storage by managed identity only.
    allowSharedKeyAccess: false
    supportsHttpsTrafficOnly: true
  }
}

resource blobs 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {
  parent: account
  name: 'default'
  properties: {
    deleteRetentionPolicy: { enabled: true, days: 7 }
    // Large uploads go from the browser to Blob Storage with a short-lived user delegation SAS.
    cors: {
      corsRules: [
        {
          allowedOrigins: corsOrigins
          allowedMethods: ['PUT', 'OPTIONS']
          allowedHeaders: ['content-type', 'content-length', 'x-ms-*']
          exposedHeaders: ['etag', 'x-ms-*']
          maxAgeInSeconds: 3600
        }
      ]
    }
  }
}

output accountName string = account.name
