import { noOutsideSource } from '../../../../shared/domain/investigation/coverage-sources';
import { Badge } from '../../components/common';
import { RecordTable } from '../../components/record-table';
import type { Report } from '../../types';

type CoverageSource = NonNullable<Report['coverage']['sources']>[number];

/** The groups an analyst reads the sources in, IntelOwl-style: what ran inside, what outside. */
const GROUPS: ReadonlyArray<{ kind: CoverageSource['kind']; title: string }> = [
  { kind: 'built_in', title: 'Tenant-internal tools' },
  { kind: 'feed', title: 'Feeds' },
  { kind: 'connector', title: 'Connectors' },
  { kind: 'analyst', title: 'Analyst' },
];

const READING_TEXT: Record<NonNullable<CoverageSource['reading']>, string> = {
  malicious: 'malicious',
  suspicious: 'suspicious',
  benign: 'benign',
  no_opinion: 'no opinion',
};

/**
 * Every source the tenant has and what became of it in this run (report.coverage.sources): one
 * table per kind with each source's status, its own reading and the reason it was skipped, disabled
 * or failed; one line above them when no outside source was consulted. Reports stored before the
 * list existed have none and show nothing here.
 */
export function CoverageList({ sources }: { sources: CoverageSource[] | undefined }) {
  if (!sources || sources.length === 0) return null;
  return (
    <section aria-labelledby="coverage-heading">
      <h3 id="coverage-heading">Sources consulted</h3>
      {noOutsideSource(sources) && (
        <p class="notice" data-testid="no-outside-source">
          No outside source was consulted: {internalText(sources)} read the tenant's own data only (no feed or
          connector).
        </p>
      )}
      {GROUPS.map(({ kind, title }) => {
        const group = sources.filter((source) => source.kind === kind);
        if (group.length === 0) return null;
        return (
          <RecordTable
            key={kind}
            caption={`${title} (${countText(group)})`}
            captionShown
            class="coverage"
            columns={['Source', 'Status', 'Reading', 'Reason']}
          >
            {group.map((source) => (
              <tr key={source.name}>
                <td>
                  <code>{source.name}</code>
                </td>
                <td>
                  <Badge kind={`coverage-${source.status}`}>{source.status}</Badge>
                </td>
                <td>
                  {source.reading ? (
                    <Badge kind={source.reading}>{READING_TEXT[source.reading]}</Badge>
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
                <td>{source.reason ?? <span class="muted">—</span>}</td>
              </tr>
            ))}
          </RecordTable>
        );
      })}
    </section>
  );
}

function internalText(sources: readonly CoverageSource[]): string {
  const count = sources.filter((s) => s.kind === 'built_in' && s.status === 'consulted').length;
  return count === 1 ? '1 tenant-internal tool' : `${count} tenant-internal tools`;
}

function countText(group: readonly CoverageSource[]): string {
  const consulted = group.filter((source) => source.status === 'consulted').length;
  return `${consulted} of ${group.length} consulted`;
}
