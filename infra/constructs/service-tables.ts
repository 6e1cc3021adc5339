import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { physicalTableName, TABLE_IDS, TABLES, type TableId } from '../../shared/store/tables';

export interface ServiceTablesProps {
  tenant: string;
  removalPolicy: RemovalPolicy;
  /**
   * A customer-managed key (the operator's, imported by ARN). Without one the tables use AWS owned
   * keys: encrypted at rest, no KMS charge, no key policy to get wrong.
   */
  encryptionKey?: IKey;
}

/**
 * The tenant's four tables, built from the same declarations the local runtime creates its tables
 * from. Retained stacks also get deletion protection, so deleting the stack or a console slip cannot
 * drop a tenant's keys and investigations.
 */
export class ServiceTables extends Construct {
  readonly tables: Record<TableId, Table>;

  constructor(scope: Construct, id: string, props: ServiceTablesProps) {
    super(scope, id);
    const retain = props.removalPolicy === RemovalPolicy.RETAIN;
    const tables = {} as Record<TableId, Table>;
    for (const tableId of TABLE_IDS) {
      const definition = TABLES[tableId];
      const table = new Table(this, tableIdToConstructId(tableId), {
        tableName: physicalTableName(props.tenant, tableId),
        partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
        sortKey: { name: definition.sortKey, type: AttributeType.STRING },
        billingMode: BillingMode.PAY_PER_REQUEST,
        timeToLiveAttribute: definition.ttlAttribute,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: retain,
        ...(props.encryptionKey
          ? { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey: props.encryptionKey }
          : { encryption: TableEncryption.DEFAULT }),
        removalPolicy: props.removalPolicy,
      });
      for (const index of definition.globalIndexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          sortKey: { name: index.sortKey, type: AttributeType.STRING },
          projectionType: ProjectionType.ALL,
        });
      }
      tables[tableId] = table;
    }
    this.tables = tables;
  }
}

function tableIdToConstructId(tableId: TableId): string {
  return `${tableId.charAt(0).toUpperCase()}${tableId.slice(1)}Table`;
}
