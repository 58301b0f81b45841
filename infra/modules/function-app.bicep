param appName string
param location string

@allowed(['auth', 'domain'])
param service string

param storageAccountName string
param appInsightsConnectionString string
param allowedOrigins array
param settings object

@description('Node worker arguments. The old generation capped so V8 collects garbage well before the instance runs short; the 500,000-row bidder import stays under 300 MB (tests/bench/uploads.ts).')
param nodeArguments string = '--max-old-space-size=160'

resource plan 'Microsoft.Web/serverfarms@2023-12-01' = {
  name: '${appName}-plan'
  location: location
  kind: 'functionapp'
  sku: { name: 'EP1', tier: 'ElasticPremium' }
  properties: { reserved: true }
}

var appSettings = union(settings, {
  FUNCTIONS_SERVICE: service
  FUNCTIONS_EXTENSION_VERSION: '~4'
  FUNCTIONS_WORKER_RUNTIME: 'node'
  languageWorkers__node__arguments: nodeArguments
  WEBSITE_RUN_FROM_PACKAGE: '1'
  APPLICATIONINSIGHTS_CONNECTION_STRING: appInsightsConnectionString
  // Identity-based connection for the Functions host and our own blob and queue clients.
  AzureWebJobsStorage__accountName: storageAccountName
  AzureWebJobsStorage__blobServiceUri: 'https://${storageAccountName}.blob.${az.environment().suffixes.storage}'
  AzureWebJobsStorage__queueServiceUri: 'https://${storageAccountName}.queue.${az.environment().suffixes.storage}'
})

resource app 'Microsoft.Web/sites@2023-12-01' = {
  name: appName
  location: location
  kind: 'functionapp,linux'
  identity: { type: 'SystemAssigned' }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    siteConfig: {
      linuxFxVersion: 'NODE|20'
      minTlsVersion: '1.2'
      ftpsState: 'Disabled'
      cors: { allowedOrigins: allowedOrigins }
      appSettings: [for setting in items(appSettings): { name: setting.key, value: setting.value }]
    }
  }
}

output principalId string = app.identity.principalId
output defaultHostname string = app.properties.defaultHostName
