/**
 * Every activity logs through a child logger carrying its context: `workflowId`, `runId`, `activity` (the type),
 * `activityId`, `attempt`, and `organizationId`, `spaceId` (or `specId`) when its input has them. Done once, for
 * every activity built by `createActivities`: `withActivityLoggers` runs each call inside its child logger, and
 * the logger activities are given (`deps.logger`) writes through the child logger of the activity running
 * (outside an activity, through the process logger). Values pass through the usual redaction.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Context, type Info } from '@temporalio/activity';
import type { Logger } from '../src/log.js';
import { redact } from '../src/redact.js';

const running = new AsyncLocalStorage<Logger>();

/** The fields of an activity's log lines: its Temporal context and the tenant ids of its input. */
export function activityBindings(info: Info, input: unknown): Record<string, string | number> {
  const bindings: Record<string, string | number> = {
    workflowId: info.workflowExecution?.workflowId ?? '',
    runId: info.workflowExecution?.runId ?? '',
    activity: info.activityType,
    activityId: info.activityId,
    attempt: info.attempt,
  };
  if (input !== null && typeof input === 'object') {
    for (const key of ['organizationId', 'spaceId', 'specId'] as const) {
      const value = (input as Record<string, unknown>)[key];
      if (typeof value === 'string') bindings[key] = value;
    }
  }
  for (const [key, value] of Object.entries(bindings)) if (typeof value === 'string') bindings[key] = redact(value);
  return bindings;
}

function currentInfo(): Info | undefined {
  try {
    return Context.current().info;
  } catch {
    return undefined; // not inside an activity (a test calling it directly)
  }
}

type ActivityFunction = (...args: never[]) => Promise<unknown>;

/** Each activity of `activities`, run inside a child of `base` with its context (`activityBindings`). */
export function withActivityLoggers<T extends Record<string, ActivityFunction>>(base: Logger, activities: T): T {
  const wrapped: Record<string, ActivityFunction> = {};
  for (const [name, activity] of Object.entries(activities)) {
    const call = (...args: never[]) => {
      const info = currentInfo();
      if (!info) return activity(...args);
      return running.run(base.child(activityBindings(info, args[0])), () => activity(...args));
    };
    Object.defineProperty(call, 'name', { value: name });
    wrapped[name] = call;
  }
  return wrapped as T;
}

/**
 * A logger that writes through the child logger of the activity running, else through `base`. Its `child()`
 * loggers (made once, when the activities are built) follow the activity running too.
 */
export function runningActivityLogger(base: Logger): Logger {
  return following(() => running.getStore() ?? base);
}

function following(resolve: () => Logger): Logger {
  const children = new WeakMap<Logger, Map<string, Logger>>();
  return new Proxy({} as Logger, {
    get(_target, prop) {
      const target = resolve();
      if (prop === 'child') {
        return (bindings: Record<string, unknown>): Logger =>
          following(() => {
            const parent = resolve();
            // One child per (parent, bindings), so a child made at build time costs nothing per log line.
            const key = JSON.stringify(bindings);
            let cache = children.get(parent);
            if (!cache) children.set(parent, (cache = new Map<string, Logger>()));
            let child = cache.get(key);
            if (!child) cache.set(key, (child = parent.child(bindings) as Logger));
            return child;
          });
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(_target, prop, value) {
      return Reflect.set(resolve(), prop, value);
    },
  });
}
