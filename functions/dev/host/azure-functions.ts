import azureFunctions from '@azure/functions';

// The package is CommonJS whose classes Node cannot see as named ES exports.
export const { HttpRequest, HttpResponse, InvocationContext } = azureFunctions;
