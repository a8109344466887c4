import type { RouteDef, RouteParsedInput, RouteOutput } from '@stoa/contract';
import type { Ctx, Platform, Principal } from '@stoa/core';

/** What a handler of a route without `{project}` gets: the platform and who is calling. */
export interface GlobalCall {
  platform: Platform;
  principal: Principal;
}

/**
 * A route's handler: parse nothing, check nothing — the input is already validated by the route's schema and
 * the context carries the actor; the handler calls one core operation and returns what the route promises.
 * The CLI's local mode calls the same handlers in-process, so both doors behave alike.
 */
export type ProjectHandler<R extends RouteDef> = (ctx: Ctx, input: RouteParsedInput<R>) => Promise<RouteOutput<R>>;
export type GlobalHandler<R extends RouteDef> = (call: GlobalCall, input: RouteParsedInput<R>) => Promise<RouteOutput<R>>;

export type AnyHandler =
  | { scope: 'project'; route: RouteDef; run: ProjectHandler<any> }
  | { scope: 'global'; route: RouteDef; run: GlobalHandler<any> };

export function projectHandler<R extends RouteDef>(route: R, run: ProjectHandler<R>): AnyHandler {
  return { scope: 'project', route, run };
}

export function globalHandler<R extends RouteDef>(route: R, run: GlobalHandler<R>): AnyHandler {
  return { scope: 'global', route, run };
}
