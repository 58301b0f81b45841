param vaultName string
param location string

@secure()
param authSigningKey string

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: vaultName
  location: location
  properties: {
    tenantId: subscription().tenantId
    sku: { family: 'A', name: 'standard' }
    enableRbacAuthorization: true
    enableSoftDelete: true
    softDeleteRetentionInDays: 30
    enablePurgeProtection: true
  }
}

resource signingKey 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'auth-signing-key'
  properties: { value: authSigningKey }
}

output vaultName string = vault.name
output signingKeySecretUri string = signingKey.properties.secretUri
