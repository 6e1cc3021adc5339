/** The service version reported by /health and the OpenAPI document; bump with package.json. */
export const SERVICE_VERSION = '0.1.0';
