/**
 * Brands most often impersonated in phishing and typosquatting (a curated list drawn from public
 * phishing-trend reports: financial services, webmail/SaaS, delivery, retail, social, crypto).
 * `domains` are the brand's own registrable domains: a domain under one of them is the brand, not a
 * lookalike. `keywords` are the labels matched against a suspect domain's labels; keywords shorter
 * than 5 characters are only matched exactly or by confusable spelling, never by edit distance,
 * because short names have too many innocent neighbours (`ups` vs `ups`/`cups`/`pups`).
 *
 * Shipped with the code on purpose: the check must work offline and deterministically. Extending it
 * is a code change with a test, not a runtime setting.
 */
export interface Brand {
  name: string;
  domains: readonly string[];
  keywords: readonly string[];
  /**
   * Keywords that are everyday words (apple, chase, booking): matched only when spelled with
   * look-alike characters, paired with a lure word (`apple-id-verify`) or alone under another TLD,
   * never by edit distance or as a bare token, or every `looking.com` would imitate Booking.
   */
  commonWords?: readonly string[];
}

/** Ordinary words one edit away from a brand keyword; never reported as typosquats. */
export const TYPOSQUAT_EXEMPT_WORDS: ReadonlySet<string> = new Set([
  'finance', // binance
  'email', // gmail
  'cloud', // icloud
  'adore', // adobe
  'revolt', // revolut
]);

export const BRANDS: readonly Brand[] = [
  { name: 'PayPal', domains: ['paypal.com', 'paypal.me', 'paypalobjects.com'], keywords: ['paypal'] },
  {
    name: 'Microsoft',
    domains: [
      'microsoft.com',
      'microsoftonline.com',
      'live.com',
      'outlook.com',
      'office.com',
      'office365.com',
      'sharepoint.com',
      'onedrive.com',
      'azure.com',
      'windows.net',
      'msn.com',
      'hotmail.com',
    ],
    keywords: ['microsoft', 'microsoftonline', 'office365', 'outlook', 'onedrive', 'sharepoint', 'hotmail'],
    commonWords: ['outlook'],
  },
  {
    name: 'Apple',
    domains: ['apple.com', 'icloud.com', 'me.com'],
    keywords: ['apple', 'icloud', 'appleid'],
    commonWords: ['apple'],
  },
  {
    name: 'Google',
    domains: ['google.com', 'gmail.com', 'googleusercontent.com', 'gstatic.com', 'youtube.com', 'goo.gl'],
    keywords: ['google', 'gmail', 'youtube'],
  },
  {
    name: 'Amazon',
    domains: [
      'amazon.com',
      'amazon.co.uk',
      'amazon.de',
      'amazon.fr',
      'amazon.co.jp',
      'amazonaws.com',
      'aws.com',
    ],
    keywords: ['amazon', 'amazonaws'],
  },
  {
    name: 'Meta',
    domains: ['facebook.com', 'fb.com', 'meta.com', 'messenger.com'],
    keywords: ['facebook', 'messenger'],
    commonWords: ['messenger'],
  },
  { name: 'Instagram', domains: ['instagram.com'], keywords: ['instagram'] },
  { name: 'WhatsApp', domains: ['whatsapp.com', 'whatsapp.net'], keywords: ['whatsapp'] },
  { name: 'LinkedIn', domains: ['linkedin.com'], keywords: ['linkedin'] },
  { name: 'X (Twitter)', domains: ['twitter.com', 'x.com', 't.co'], keywords: ['twitter'] },
  { name: 'Netflix', domains: ['netflix.com'], keywords: ['netflix'] },
  { name: 'Adobe', domains: ['adobe.com', 'adobelogin.com'], keywords: ['adobe'] },
  { name: 'Dropbox', domains: ['dropbox.com', 'dropboxusercontent.com'], keywords: ['dropbox'] },
  { name: 'DocuSign', domains: ['docusign.com', 'docusign.net'], keywords: ['docusign'] },
  { name: 'WeTransfer', domains: ['wetransfer.com'], keywords: ['wetransfer'] },
  { name: 'DHL', domains: ['dhl.com', 'dhl.de'], keywords: ['dhl'] },
  { name: 'FedEx', domains: ['fedex.com'], keywords: ['fedex'] },
  { name: 'UPS', domains: ['ups.com'], keywords: ['ups'] },
  { name: 'USPS', domains: ['usps.com'], keywords: ['usps'] },
  { name: 'Royal Mail', domains: ['royalmail.com'], keywords: ['royalmail'] },
  {
    name: 'Chase',
    domains: ['chase.com', 'jpmorganchase.com'],
    keywords: ['chase', 'jpmorgan'],
    commonWords: ['chase'],
  },
  { name: 'Bank of America', domains: ['bankofamerica.com', 'bofa.com'], keywords: ['bankofamerica'] },
  { name: 'Wells Fargo', domains: ['wellsfargo.com'], keywords: ['wellsfargo'] },
  { name: 'Citi', domains: ['citi.com', 'citibank.com'], keywords: ['citibank'] },
  { name: 'HSBC', domains: ['hsbc.com', 'hsbc.co.uk'], keywords: ['hsbc'] },
  { name: 'Barclays', domains: ['barclays.com', 'barclays.co.uk'], keywords: ['barclays'] },
  { name: 'Santander', domains: ['santander.com', 'santander.co.uk'], keywords: ['santander'] },
  { name: 'ING', domains: ['ing.com', 'ing.nl'], keywords: ['ing'] },
  { name: 'Deutsche Bank', domains: ['db.com', 'deutsche-bank.de'], keywords: ['deutschebank'] },
  {
    name: 'American Express',
    domains: ['americanexpress.com', 'amex.com'],
    keywords: ['americanexpress', 'amex'],
  },
  { name: 'Visa', domains: ['visa.com'], keywords: ['visa'], commonWords: ['visa'] },
  { name: 'Mastercard', domains: ['mastercard.com'], keywords: ['mastercard'] },
  { name: 'Revolut', domains: ['revolut.com'], keywords: ['revolut'] },
  { name: 'Wise', domains: ['wise.com', 'transferwise.com'], keywords: ['transferwise'] },
  { name: 'Venmo', domains: ['venmo.com'], keywords: ['venmo'] },
  { name: 'Cash App', domains: ['cash.app', 'squareup.com'], keywords: ['cashapp'] },
  { name: 'Stripe', domains: ['stripe.com'], keywords: ['stripe'], commonWords: ['stripe'] },
  {
    name: 'Intuit',
    domains: ['intuit.com', 'quickbooks.com', 'turbotax.com'],
    keywords: ['intuit', 'quickbooks'],
    commonWords: ['intuit'],
  },
  { name: 'Coinbase', domains: ['coinbase.com'], keywords: ['coinbase'] },
  { name: 'Binance', domains: ['binance.com'], keywords: ['binance'] },
  { name: 'Kraken', domains: ['kraken.com'], keywords: ['kraken'], commonWords: ['kraken'] },
  {
    name: 'Blockchain.com',
    domains: ['blockchain.com'],
    keywords: ['blockchain'],
    commonWords: ['blockchain'],
  },
  { name: 'MetaMask', domains: ['metamask.io'], keywords: ['metamask'] },
  { name: 'Ledger', domains: ['ledger.com'], keywords: ['ledger'], commonWords: ['ledger'] },
  {
    name: 'Steam',
    domains: ['steampowered.com', 'steamcommunity.com'],
    keywords: ['steampowered', 'steamcommunity'],
  },
  { name: 'Roblox', domains: ['roblox.com'], keywords: ['roblox'] },
  {
    name: 'Discord',
    domains: ['discord.com', 'discord.gg', 'discordapp.com'],
    keywords: ['discord', 'discordapp'],
    commonWords: ['discord'],
  },
  { name: 'Telegram', domains: ['telegram.org', 't.me'], keywords: ['telegram'], commonWords: ['telegram'] },
  { name: 'Spotify', domains: ['spotify.com'], keywords: ['spotify'] },
  { name: 'eBay', domains: ['ebay.com', 'ebay.co.uk', 'ebay.de'], keywords: ['ebay'] },
  { name: 'Walmart', domains: ['walmart.com'], keywords: ['walmart'] },
  { name: 'Alibaba', domains: ['alibaba.com', 'aliexpress.com'], keywords: ['alibaba', 'aliexpress'] },
  { name: 'Booking.com', domains: ['booking.com'], keywords: ['booking'], commonWords: ['booking'] },
  { name: 'Airbnb', domains: ['airbnb.com'], keywords: ['airbnb'] },
  { name: 'Yahoo', domains: ['yahoo.com'], keywords: ['yahoo'] },
  { name: 'AOL', domains: ['aol.com'], keywords: ['aol'] },
  { name: 'Zoom', domains: ['zoom.us', 'zoom.com'], keywords: ['zoom'], commonWords: ['zoom'] },
  { name: 'Slack', domains: ['slack.com'], keywords: ['slack'], commonWords: ['slack'] },
  { name: 'GitHub', domains: ['github.com', 'github.io', 'githubusercontent.com'], keywords: ['github'] },
  { name: 'Okta', domains: ['okta.com', 'oktapreview.com'], keywords: ['okta'] },
  { name: 'Salesforce', domains: ['salesforce.com', 'force.com'], keywords: ['salesforce'] },
  { name: 'AT&T', domains: ['att.com', 'att.net'], keywords: ['att'] },
  { name: 'Verizon', domains: ['verizon.com', 'verizon.net'], keywords: ['verizon'] },
  {
    name: 'Comcast',
    domains: ['comcast.com', 'xfinity.com', 'comcast.net'],
    keywords: ['comcast', 'xfinity'],
  },
  { name: 'IRS', domains: ['irs.gov'], keywords: ['irs'] },
  { name: 'HMRC', domains: ['hmrc.gov.uk'], keywords: ['hmrc'] },
];

const OWNER_BY_DOMAIN = new Map(BRANDS.flatMap((brand) => brand.domains.map((d) => [d, brand] as const)));

/** The brand that owns this registrable domain, if any. */
export function brandOwning(registrableDomain: string): Brand | undefined {
  return OWNER_BY_DOMAIN.get(registrableDomain);
}
