import { httpHandler } from '../../shared/api/http-handler';
import * as routes from '../../shared/api/routes/console';
import { ASSET_CACHE_CONTROL, servedConsoleAsset } from '../../shared/services/console/console-pages';

/** GET /console/assets/{file}: a content-hashed file the build's manifest names (404 otherwise). */
export const handler = httpHandler(routes.getConsoleAsset, async ({ params }) => {
  const asset = await servedConsoleAsset(params.file);
  return {
    statusCode: 200,
    rawBody: asset.body,
    headers: { 'content-type': asset.contentType, 'cache-control': ASSET_CACHE_CONTROL },
  };
});
