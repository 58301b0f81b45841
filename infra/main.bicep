// Lotwise on Azure: two Function Apps from one package, Cosmos DB, Storage, Key Vault,
// App Configuration, Application Insights and a Static Web App for the client.
targetScope = 'resourceGroup'

@description('Short name used to derive resource names, e.g. "lotwise".')
@minLength(3)
@maxLength(12)
param name string = 'lotwise'

@description('Deployment environment, e.g. dev, test, prod.')
param environment string = 'dev'

param location string = resourceGroup().location

@description('Region for the Static Web App (it is offered in fewer regions).')
param staticWebAppLocation string = 'westeurope'

@secure()
@description('HMAC key for access tokens, at least 32 characters. Stored in Key Vault.')
param authSigningKey string

@description('The address support tickets go to, shown on the support page and in Help.')
param supportEmail string

@description('How soon support answers, as the support page says it.')
param supportReplyTime string = 'We reply within 24 hours.'

@description('The support telephone number; empty offers none.')
param supportPhone string = ''

@description('When the support telephone is answered, e.g. "Mon-Fri 9AM-6PM EST".')
param supportPhoneHours string = ''

@description('When live chat is staffed; empty offers none.')
param supportChatHours string = ''

var suffix = uniqueString(resourceGroup().id, name, environment)
var prefix = '${name}-${environment}'
var containers = loadJsonContent('containers.json')

module monitoring 'modules/monitoring.bicep' = {
  name: 'monitoring'
  params: { prefix: prefix, location: location }
}

module storage 'modules/storage.bicep' = {
  name: 'storage'
  params: {
    accountName: take('st${name}${suffix}', 24)
    location: location
    corsOrigins: ['https://${web.outputs.defaultHostname}']
  }
}

module cosmos 'modules/cosmos.bicep' = {
  name: 'cosmos'
  params: {
    accountName: '${prefix}-cosmos-${suffix}'
    location: location
    databaseName: 'lotwise'
    containers: containers
  }
}

module keyVault 'modules/key-vault.bicep' = {
  name: 'keyVault'
  params: {
    vaultName: take('kv-${name}-${suffix}', 24)
    location: location
    authSigningKey: authSigningKey
  }
}

module appConfig 'modules/app-config.bicep' = {
  name: 'appConfig'
  params: { storeName: '${prefix}-appcs-${suffix}', location: location }
}

module communication 'modules/communication.bicep' = {
  name: 'communication'
  params: { prefix: prefix }
}

module web 'modules/static-web-app.bicep' = {
  name: 'web'
  params: { siteName: '${prefix}-web', location: staticWebAppLocation }
}

var sharedSettings = {
  COSMOS_ENDPOINT: cosmos.outputs.endpoint
  COSMOS_DATABASE: 'lotwise'
  AUTH_SIGNING_KEY: '@Microsoft.KeyVault(SecretUri=${keyVault.outputs.signingKeySecretUri})'
  AUTH_ISSUER: 'lotwise'
  WEB_ORIGINS: 'https://${web.outputs.defaultHostname}'
  PUBLIC_WEB_URL: 'https://${web.outputs.defaultHostname}'
  ENVIRONMENT: 'production'
  MAIL_TRANSPORT: 'acs'
  ACS_ENDPOINT: communication.outputs.endpoint
  MAIL_SENDER: communication.outputs.senderAddress
  APP_CONFIGURATION_ENDPOINT: appConfig.outputs.endpoint
  SUPPORT_EMAIL: supportEmail
  SUPPORT_REPLY_TIME: supportReplyTime
  SUPPORT_PHONE: supportPhone
  SUPPORT_PHONE_HOURS: supportPhoneHours
  SUPPORT_CHAT_HOURS: supportChatHours
}

module authApp 'modules/function-app.bicep' = {
  name: 'authApp'
  params: {
    appName: '${prefix}-auth-${suffix}'
    location: location
    service: 'auth'
    storageAccountName: storage.outputs.accountName
    appInsightsConnectionString: monitoring.outputs.connectionString
    allowedOrigins: ['https://${web.outputs.defaultHostname}']
    settings: sharedSettings
  }
}

module domainApp 'modules/function-app.bicep' = {
  name: 'domainApp'
  params: {
    appName: '${prefix}-domain-${suffix}'
    location: location
    service: 'domain'
    storageAccountName: storage.outputs.accountName
    appInsightsConnectionString: monitoring.outputs.connectionString
    allowedOrigins: ['https://${web.outputs.defaultHostname}']
    settings: sharedSettings
  }
}

module access 'modules/access.bicep' = {
  name: 'access'
  params: {
    principalIds: [authApp.outputs.principalId, domainApp.outputs.principalId]
    storageAccountName: storage.outputs.accountName
    cosmosAccountName: cosmos.outputs.accountName
    vaultName: keyVault.outputs.vaultName
    appConfigName: appConfig.outputs.storeName
    communicationName: communication.outputs.name
  }
}

output authUrl string = 'https://${authApp.outputs.defaultHostname}'
output domainUrl string = 'https://${domainApp.outputs.defaultHostname}'
output webUrl string = 'https://${web.outputs.defaultHostname}'
output staticWebAppName string = web.outputs.siteName
