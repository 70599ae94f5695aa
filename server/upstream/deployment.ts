import type { Deployment } from "../../contract/integrations";
import type { TargetProvider } from "./http";

/** The methods of a client that answer with an async iterator (a listing followed page by page). */
type IteratorKey<C> = { [K in keyof C]: C[K] extends (...args: never[]) => AsyncIterable<unknown> ? K : never }[keyof C];
/** The methods that answer with a promise. */
type PromiseKey<C> = { [K in keyof C]: C[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof C];

/**
 * One client over the Cloud and the Data Center shapes of a service (ARCHITECTURE: one interface
 * per service, both shapes behind it). Each call asks its target which deployment it is on (the
 * integration's, saved and cached with its row) and goes to that shape, so a saved change of
 * deployment takes effect at the next call, as a saved URL does. `iterators` names the methods
 * that answer with an async iterator (checked by the compiler: a missing or extra one fails it).
 */
export function byDeployment<C extends Record<PromiseKey<C> | IteratorKey<C>, (...args: never[]) => unknown>>(
  target: TargetProvider,
  shapes: Readonly<Record<Deployment, C>>,
  iterators: { readonly [K in IteratorKey<C>]: true },
): C {
  const facade: Record<string, unknown> = {};
  for (const key of Object.keys(shapes.cloud) as (keyof C & string)[]) {
    if (typeof shapes.cloud[key] !== "function") continue;
    if (Object.hasOwn(iterators, key)) {
      facade[key] = async function* (...args: never[]) {
        const shape = shapes[(await target()).deployment ?? "cloud"];
        yield* (shape[key] as (...a: never[]) => AsyncIterable<unknown>).apply(shape, args);
      };
    } else {
      facade[key] = async (...args: never[]) => {
        const shape = shapes[(await target()).deployment ?? "cloud"];
        return (shape[key] as (...a: never[]) => Promise<unknown>).apply(shape, args);
      };
    }
  }
  return facade as C;
}
