// Module resolve hook (runs in Node's loader thread, so plain JavaScript): lets plugin files
// outside this package import the public API as 'supervisor/plugin'.
let apiUrl;

export function initialize(data) {
  apiUrl = data.apiUrl;
}

export async function resolve(specifier, context, next) {
  if (specifier === 'supervisor/plugin') return { url: apiUrl, shortCircuit: true };
  return next(specifier, context);
}
