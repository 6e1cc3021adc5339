import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

/**
 * The cold-start floor: the least a Lambda function of this service can do. It creates a DynamoDB
 * client at import, as the handlers do, and reads one item. Built and started exactly like the
 * service's functions, so the difference is what the service's own code and dependencies cost.
 */
const local = process.env.SIS_DYNAMODB_ENDPOINT;
const client = new DynamoDBClient({
  region: process.env.AWS_REGION ?? 'us-east-1',
  ...(local ? { endpoint: local, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
});

export const handler = async () => {
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: process.env.SIS_SESSIONS_TABLE,
      Key: { pk: { S: 'BENCH#FLOOR' }, sk: { S: 'FLOOR' } },
    }),
  );
  return { statusCode: 200, body: JSON.stringify({ found: Item !== undefined }) };
};
