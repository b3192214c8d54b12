// import.meta.url for ES modules bundled into one CommonJS file (esbuild's define points here).
/* global require, __filename */
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
