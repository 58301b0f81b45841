param storeName string
param location string

resource store 'Microsoft.AppConfiguration/configurationStores@2023-03-01' = {
  name: storeName
  location: location
  sku: { name: 'standard' }
  properties: { disableLocalAuth: true }
}

output storeName string = store.name
output endpoint string = store.properties.endpoint
