// Unbundled runs load ipaddr.js from the package; a Lambda bundle has the package's own file under
// this name beside it instead (shared/domain/core/ip-address.ts).
module.exports = require('ipaddr.js');
