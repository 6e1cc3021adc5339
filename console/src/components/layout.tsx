import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso/router';
import { signOut } from '../auth';
import { pageHref } from '../base';
import type { Me } from '../types';

interface NavItem {
  href: string;
  label: string;
  /** An admin page analysts may read too (shown to them under the same heading). */
  analysts?: boolean;
}

const ANALYST_NAV: NavItem[] = [
  { href: '/sessions', label: 'Investigations' },
  { href: '/incidents', label: 'Incidents' },
  { href: '/graph', label: 'Knowledge graph' },
];
const ADMIN_NAV: NavItem[] = [
  { href: '/admin/keys', label: 'API keys' },
  { href: '/admin/audit', label: 'Audit' },
  { href: '/admin/allowlist', label: 'Allowlist' },
  { href: '/admin/feeds', label: 'Feeds' },
  { href: '/admin/connectors', label: 'Connectors', analysts: true },
  { href: '/admin/webhooks', label: 'Webhooks' },
  { href: '/admin/critical-assets', label: 'Critical assets' },
];

function NavLink({ item, path }: { item: NavItem; path: string }) {
  const href = pageHref(item.href);
  const active = path === href || path.startsWith(`${href}/`);
  return (
    <li>
      <a href={href} {...(active ? { 'aria-current': 'page' as const } : {})}>
        {item.label}
      </a>
    </li>
  );
}

export function Layout({ me, children }: { me: Me; children: ComponentChildren }) {
  const { path } = useLocation();
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={pageHref('/sessions')}>
          Security Investigation Service
        </a>
        <nav aria-label="Main">
          <ul>
            {ANALYST_NAV.map((item) => (
              <NavLink key={item.href} item={item} path={path} />
            ))}
          </ul>
          {(me.role === 'admin' || ADMIN_NAV.some((item) => item.analysts)) && (
            <ul aria-label="Admin">
              {ADMIN_NAV.filter((item) => me.role === 'admin' || item.analysts).map((item) => (
                <NavLink key={item.href} item={item} path={path} />
              ))}
            </ul>
          )}
        </nav>
        <div class="who">
          <span>
            Signed in as <strong>{me.username}</strong> ({me.role})
          </span>
          <button type="button" class="secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
