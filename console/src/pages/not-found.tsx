import { pageHref } from '../base';
import { PageTitle } from '../components/common';

export function NotFoundPage() {
  return (
    <>
      <PageTitle>Page not found</PageTitle>
      <p>
        There is no console page at this address. Go to <a href={pageHref('/sessions')}>investigations</a>.
      </p>
    </>
  );
}
