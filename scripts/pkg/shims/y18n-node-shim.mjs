// y18n's platform shim without file access: inside the binary there are no locale files beside
// the bundle, so y18n keeps its built-in English strings instead of probing the disk.
import { format } from 'node:util';
import { resolve } from 'node:path';

export default {
  fs: { readFileSync: undefined, writeFile: () => {} },
  format,
  resolve,
  exists: () => false,
};
