import { app } from '@azure/functions';
import { settings } from './platform/settings.js';
import { registerFunctions } from './register.js';
import { functionsFor, installPrincipalGuards } from './registry.js';

// Parsing the settings first stops a misconfigured app at start-up, naming the setting.
const { FUNCTIONS_SERVICE } = settings();

// Request bodies arrive as streams, so an upload is read as it comes rather than held whole.
app.setup({ enableHttpStream: true });
installPrincipalGuards();
registerFunctions(app, functionsFor(FUNCTIONS_SERVICE));
