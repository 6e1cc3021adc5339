import { httpHandler } from '../../shared/api/http-handler';
import { renderTermsPage } from '../../shared/api/pages/terms-page';
import { PLUGIN_DISPLAY_NAME } from '../../shared/api/plugin-manifests';
import * as routes from '../../shared/api/routes/meta';
import { config } from '../../shared/config';

export const handler = httpHandler(routes.termsPage, async () => {
  const cfg = config();
  return {
    statusCode: 200,
    rawBody: renderTermsPage({
      serviceName: PLUGIN_DISPLAY_NAME,
      contactEmail: cfg.SIS_CONTACT_EMAIL,
      operatorLegalUrl: cfg.SIS_LEGAL_URL,
    }),
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  };
});
