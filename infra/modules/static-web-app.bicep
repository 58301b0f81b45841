param siteName string
param location string

resource site 'Microsoft.Web/staticSites@2023-12-01' = {
  name: siteName
  location: location
  sku: { name: 'Standard', tier: 'Standard' }
  properties: {}
}

output siteName string = site.name
output defaultHostname string = site.properties.defaultHostname
