// string-width compiles large Unicode regexes (\p{RGI_Emoji} with /v) when it loads, which
// costs 20-30 ms on every start of the binary even though yargs' help text is ASCII. This shim
// answers printable ASCII itself and loads the real module only for anything else.
let real;

module.exports = function stringWidth(input, options) {
  if (typeof input === 'string' && /^[\u0020-\u007E]*$/.test(input)) return input.length;
  real ??= require('string-width').default;
  return real(input, options);
};
