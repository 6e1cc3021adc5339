// Unbundled runs load the Public Suffix List from the tldts package; a Lambda bundle has tldts's
// prebuilt file under this name beside it instead (shared/domain/core/public-suffix.ts).
module.exports = require('tldts');
