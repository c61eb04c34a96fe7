import type { ServerContext } from '@modelcontextprotocol/server';
import { isLogLevel, levelAtLeast } from '../logging.js';
import type { LogLevel } from '../types.js';
import type { Scope } from './scope.js';

const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

/**
 * `notifications/message`. Legacy sessions set one level with `logging/setLevel`; on
 * 2026-07-28 each request names its own level in `_meta`, and a request without one gets
 * no log messages. stderr (the server's logger) gets every message either way.
 */
export function registerLogging<Ext>(scope: Scope<Ext>) {
  let level: LogLevel = scope.config.logLevel ?? 'info';
  if (scope.era === 'legacy') {
    scope.on('logging/setLevel', async (request: { params: { level: LogLevel } }) => {
      level = request.params.level;
      return {};
    });
  }
  return function logFor(ctx: ServerContext | undefined) {
    return (messageLevel: LogLevel, message: string, data?: unknown) => {
      scope.logger.log(messageLevel, message, data);
      const params = {
        level: messageLevel,
        logger: scope.config.name,
        data: data === undefined ? message : { message, data },
      };
      if (scope.era === 'legacy') {
        if (!levelAtLeast(messageLevel, level)) return;
        // Inside a request, on that request's stream: over HTTP a client need not open the
        // standalone GET stream. Outside one (roots changed), unsolicited as before.
        if (ctx) ctx.mcpReq.notify({ method: 'notifications/message', params }).catch(() => undefined);
        else scope.send('notifications/message', params);
        return;
      }
      const requested = ctx?.mcpReq.envelope?.[LOG_LEVEL_META_KEY as never] as unknown;
      if (!ctx || typeof requested !== 'string' || !isLogLevel(requested) || !levelAtLeast(messageLevel, requested)) return;
      ctx.mcpReq.notify({ method: 'notifications/message', params }).catch(() => undefined);
    };
  };
}
