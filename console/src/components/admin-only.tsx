import type { ComponentChildren } from 'preact';
import type { Me } from '../types';
import { PageTitle } from './common';

/** Admin pages refuse analysts outright; the service refuses their calls too (403). */
export function AdminOnly({ me, children }: { me: Me; children: ComponentChildren }) {
  if (me.role === 'admin') return <>{children}</>;
  return (
    <>
      <PageTitle>Not allowed</PageTitle>
      <p role="alert">This page is for administrators. Ask an admin if you need an API key.</p>
    </>
  );
}
