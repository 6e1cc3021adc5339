/** The investigation domain's public surface: import from here rather than from the files. */
export * from './engine';
export * from './persona-endings';
export * from './persona-names';
export * from './personas';
export * from './report';
export * from './scoring';
export * from './tool-catalogue';
export { brandMatches, DOMAIN_THRESHOLDS, SUSPICIOUS_TLDS } from './tool-domain-analysis';
export { ACCOUNT_RULES, HOST_RULES } from './tool-identity';
export { classifyIp, type IpRange, reversePointer } from './tool-ip-classification';
export * from './tools';
export * from './types';
