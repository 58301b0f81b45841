param accountName string
param location string
param databaseName string

@description('Containers as declared by the code (infra/containers.json).')
param containers array

resource account 'Microsoft.DocumentDB/databaseAccounts@2024-05-15' = {
  name: accountName
  location: location
  kind: 'GlobalDocumentDB'
  properties: {
    databaseAccountOfferType: 'Standard'
    consistencyPolicy: { defaultConsistencyLevel: 'Session' }
    locations: [{ locationName: location, failoverPriority: 0 }]
    capabilities: [{ name: 'EnableServerless' }]
    // Data access is by Entra ID (managed identity) only.
    disableLocalAuth: true
  }
}

resource database 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases@2024-05-15' = {
  parent: account
  name: databaseName
  properties: { resource: { id: databaseName } }
}

resource sqlContainers 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@2024-05-15' = [
  for container in containers: {
    parent: database
    name: container.id
    properties: {
      resource: {
        id: container.id
        partitionKey: { paths: [container.partitionKey], kind: 'Hash' }
        indexingPolicy: {
          indexingMode: 'consistent'
          automatic: true
          includedPaths: [{ path: '/*' }]
          excludedPaths: [{ path: '/"_etag"/?' }]
          compositeIndexes: container.compositeIndexes ?? []
        }
        uniqueKeyPolicy: { uniqueKeys: map(container.uniqueKeys ?? [], paths => { paths: paths }) }
      }
    }
  }
]

output accountName string = account.name
output endpoint string = account.properties.documentEndpoint
