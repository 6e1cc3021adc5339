/** A synthesised CloudFormation template as JSON, and its intrinsics rendered for offline checks. */
export interface CfnTemplate {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string }>;
  Outputs?: Record<string, unknown>;
}

/** Stand-ins for deploy-time values: a pinned-looking account and region, resource refs by name. */
const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': 'eu-west-1',
  'AWS::AccountId': '123456789012',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'SecurityInvestigation-check',
};

/**
 * Renders Fn::Join / Fn::Sub / Ref / Fn::GetAtt to a string: pseudo-parameters become their stand-ins,
 * resource references `<ref:Id>` (so a literal ARN shape around them stays checkable).
 */
export function render(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (!value || typeof value !== 'object') return '';
  const object = value as Record<string, unknown>;
  if ('Ref' in object) return PSEUDO[String(object.Ref)] ?? `<ref:${object.Ref}>`;
  if ('Fn::GetAtt' in object) {
    const target = object['Fn::GetAtt'];
    return `<ref:${Array.isArray(target) ? target.join('.') : String(target)}>`;
  }
  if ('Fn::Join' in object) {
    const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
    return parts.map(render).join(separator);
  }
  if ('Fn::Sub' in object) {
    const sub = object['Fn::Sub'];
    const [text, variables] = Array.isArray(sub) ? sub : [sub, {}];
    return String(text).replace(/\$\{([^}]+)\}/g, (_, name: string) =>
      name in (variables as object)
        ? render((variables as Record<string, unknown>)[name])
        : (PSEUDO[name] ?? `<ref:${name}>`),
    );
  }
  return JSON.stringify(value);
}

/** True when the value is a whole reference, resolved only at deploy time (nothing literal to check). */
export function isWholeReference(value: unknown): boolean {
  return (
    !!value &&
    typeof value === 'object' &&
    ('Ref' in value || 'Fn::GetAtt' in value || 'Fn::ImportValue' in value)
  );
}

export function resourcesOf(template: CfnTemplate, type: string) {
  return Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
}
