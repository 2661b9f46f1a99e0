import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { typedSettings } from './keys.js';
import { createPreferenceService } from './preferences.js';
import { ErrorBody, SelectorFinderBody, ThemeBody, ThemeReply } from './schemas.js';

const tags = ['settings'];
const config = { auth: 'authenticated' } as const;
export const THEME_COOKIE = 'service_theme';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** `/selector-finder` and `/theme`. */
export async function preferenceRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const preferences = createPreferenceService(typedSettings(app.services.storage.settings));

  app.get('/selector-finder', {
    config: { ...config, access: 'read' },
    schema: { tags, operationId: 'getSelectorFinder', summary: 'How the dashboard finds selectors (default `highlight`)', response: { 200: SelectorFinderBody } },
  }, async () => ({ selectorFinder: await preferences.selectorFinder() }));

  app.post('/selector-finder', {
    config: { ...config, access: 'admin' },
    schema: { tags, operationId: 'setSelectorFinder', summary: 'Set how the dashboard finds selectors', body: SelectorFinderBody, response: { 200: SelectorFinderBody, 400: ErrorBody } },
  }, async (request) => ({ selectorFinder: await preferences.setSelectorFinder(request.body.selectorFinder) }));

  app.get('/theme', {
    config: { ...config, access: 'read' },
    schema: {
      tags,
      operationId: 'getTheme',
      // The spec has a cookie's theme saved here; a GET writes nothing, so the POST alone saves (README: Deviations).
      summary: 'The dashboard theme; when none is stored, that of a valid `service_theme` or `theme` cookie (not stored), else `dark`',
      response: { 200: ThemeReply },
    },
  }, async (request) => ({ theme: await preferences.theme([request.cookies[THEME_COOKIE], request.cookies.theme]) }));

  app.post('/theme', {
    config: { ...config, access: 'admin' },
    schema: {
      tags,
      operationId: 'setTheme',
      summary: 'Save the theme (a value outside the four themes is saved as `dark`) and set the `service_theme` cookie',
      body: ThemeBody,
      response: { 200: ThemeReply, 400: ErrorBody },
    },
  }, async (request, reply) => {
    const theme = await preferences.setTheme(request.body.theme);
    void reply.setCookie(THEME_COOKIE, theme, {
      path: '/',
      sameSite: 'lax',
      maxAge: ONE_YEAR_SECONDS,
      secure: request.protocol === 'https',
    });
    return { theme };
  });
}

