import type { Construct } from 'constructs';
import type { RouteDefinition } from '../../shared/api/route-types';
import type { ServiceApi } from '../constructs/service-api';
import { ServiceFunction, type ServiceFunctionDefaults } from '../constructs/service-function';
import { pascalCase } from '../naming';

/** Functions that serve the built console from their asset. */
export const CONSOLE_FILE_FUNCTIONS: ReadonlySet<string> = new Set(['console-page', 'console-asset']);
/** Functions that need the console's sign-in settings (issuer, client, login domain). */
export const CONSOLE_SIGN_IN_FUNCTIONS: ReadonlySet<string> = new Set(['console-page', 'console-config']);

/**
 * One function per `functionName` of the route table (routes sharing a name share the function),
 * each route added to the API; returns the functions by name.
 */
export function addRouteFunctions(
  scope: Construct,
  api: ServiceApi,
  routes: readonly RouteDefinition[],
  defaults: ServiceFunctionDefaults,
  consoleSignInEnvironment: Record<string, string>,
): Map<string, ServiceFunction> {
  const functions = new Map<string, ServiceFunction>();
  for (const route of routes) {
    let fn = functions.get(route.functionName);
    if (!fn) {
      fn = new ServiceFunction(scope, `${pascalCase(route.functionName)}Function`, {
        defaults,
        name: route.functionName,
        ...(CONSOLE_FILE_FUNCTIONS.has(route.functionName) ? { consoleFiles: true } : {}),
        ...(CONSOLE_SIGN_IN_FUNCTIONS.has(route.functionName)
          ? { environment: consoleSignInEnvironment }
          : {}),
        ...(route.timeoutSeconds ? { timeoutSeconds: route.timeoutSeconds } : {}),
        ...(route.memoryMb ? { memoryMb: route.memoryMb } : {}),
      });
      functions.set(route.functionName, fn);
    }
    api.addRoute(route, fn);
  }
  return functions;
}
