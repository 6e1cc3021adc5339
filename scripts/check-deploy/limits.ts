/**
 * The documented AWS limits the deploy check holds every template to. Each number is quoted from the
 * page named beside it (checked 2026-12-01).
 */
export const LIMITS = {
  // CloudFormation quotas: "Resources: 500 per template", "Outputs: 200 per template",
  // "Template body size in an Amazon S3 object: 1 MB" (the CDK uploads templates to S3).
  // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html
  resources: 500,
  outputs: 200,
  templateBytes: 1_000_000,
  // Lambda CreateFunction FunctionName: "Length Constraints: Minimum length of 1. Maximum length of 64."
  // https://docs.aws.amazon.com/lambda/latest/api/API_CreateFunction.html
  functionName: 64,
  // IAM quotas: "Role name: 64 characters"; "Role inline policy size: 10,240 characters"
  // (all inline policies of a role together); "Managed policy size: 6,144 characters".
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html
  roleName: 64,
  roleInlinePolicyChars: 10_240,
  managedPolicyChars: 6_144,
  // Lambda quotas: "Function environment variables: 4 KB, for all environment variables associated
  // with the function, in aggregate"; "Deployment package (.zip file archive) size: 50 MB (zipped, when
  // uploaded directly), 250 MB (unzipped)".
  // https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html
  environmentBytes: 4 * 1024,
  zippedAssetBytes: 50 * 1024 * 1024,
  unzippedAssetBytes: 250 * 1024 * 1024,
  // API Gateway quotas: "Resources per API: 300" (adjustable; the default quota is what a fresh
  // account has). https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html
  apiResources: 300,
  // Step Functions quotas: "Maximum request size: 1 MB per request" (a state machine definition is
  // sent in CreateStateMachine). https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html
  stateMachineDefinitionBytes: 1024 * 1024,
} as const;
