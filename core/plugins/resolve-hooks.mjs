// Module resolve hook (runs in Node's loader thread, so plain JavaScript): lets plugin files
// outside this package import the public API by its specifier ('supervisor/plugin'). Both the
// specifier and the API's URL come in `data` from plugin-api-resolution.ts.
let specifier;
let apiUrl;

export function initialize(data) {
  specifier = data.specifier;
  apiUrl = data.apiUrl;
}

export async function resolve(requested, context, next) {
  if (requested === specifier) return { url: apiUrl, shortCircuit: true };
  return next(requested, context);
}
