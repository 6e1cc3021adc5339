import type { Attributes, Facts, Finding, ToolName } from '../../core/vocabulary';
import { makeFinding } from '../scoring';
import type { OfflineIntel } from './enrichment';

/**
 * What the offline mail-provider lists say about a mail domain: a disposable (throw-away) provider
 * is a signal of its own, a free-mail provider is context (a personal address, not a corporate
 * identity). Used by account_analysis (the domain of user@domain) and domain_analysis.
 */
export interface MailProviderAnswer {
  facts: Facts;
  attributes: Attributes;
  findings: Finding[];
}

export const DISPOSABLE_MAIL_SCORE = 25;

export function mailProviderAnswer(
  tool: ToolName,
  domain: string,
  subject: 'account' | 'domain',
  offline: OfflineIntel | undefined,
): MailProviderAnswer | undefined {
  if (!offline) return undefined;
  const { disposable, free } = offline.mailDomain(domain);
  const date = offline.mailDataDate;
  const facts: Facts = {
    mail_domain: domain,
    disposable_mail_provider: disposable,
    free_mail_provider: free,
    mail_data_date: date,
  };
  const attributes: Attributes = { mail_domain: domain, disposable_email: disposable, free_email: free };
  const findings: Finding[] = [];
  if (disposable) {
    findings.push(
      makeFinding({
        tool,
        code: 'disposable_mail_provider',
        title: `Disposable e-mail provider (${domain})`,
        description:
          subject === 'account'
            ? `${domain} is on the disposable e-mail list (list of ${date}): throw-away inboxes are used to register fraudulent accounts and to receive one-time codes without an identity behind them.`
            : `${domain} is a disposable e-mail service (list of ${date}): addresses under it are throw-away inboxes with no identity behind them.`,
        impact:
          subject === 'account'
            ? 'The account uses a throw-away e-mail address that nobody can be held accountable for.'
            : 'This domain hands out throw-away e-mail addresses.',
        score: DISPOSABLE_MAIL_SCORE,
        category: 'anomalous_naming',
        evidence: [domain],
      }),
    );
  } else if (free) {
    findings.push(
      makeFinding({
        tool,
        code: 'free_mail_provider',
        title: `Free e-mail provider (${domain})`,
        description: `${domain} is a free e-mail provider (list of ${date}): ${subject === 'account' ? 'a personal address, not a corporate identity' : 'anyone can open an address under it'}.`,
        impact:
          subject === 'account'
            ? 'This is a personal e-mail address rather than a company one.'
            : 'Anyone can create an e-mail address at this provider.',
        score: 0,
        category: 'context',
        evidence: [domain],
      }),
    );
  }
  return { facts, attributes, findings };
}
