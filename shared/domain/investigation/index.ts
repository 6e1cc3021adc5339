/** The investigation domain's public surface: import from here rather than from the files. */
export * from './engine';
export { classifyIp, type IpRange } from './ip-ranges';
export * from './persona-endings';
export * from './persona-names';
export * from './personas';
export * from './report';
export * from './scoring';
export * from './tool-catalogue';
export { brandMatches, DOMAIN_THRESHOLDS, SUSPICIOUS_TLDS } from './tool-domain-analysis';
export { ACCOUNT_RULES, HOST_RULES } from './tool-identity';
export { reversePointer } from './tool-ip-classification';
export * from './tools';
export * from './types';
